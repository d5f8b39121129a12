import PatchManifest
import ProjectWiring

/// Writes the Swift that routes views and opted-in functions through the SDK (docs/prepare.md).
enum ThunkEmitter {
    /// One routed view body: everything its generated `body` needs.
    struct ViewThunk: Sendable {
        var extendedType: String
        var typeName: String
        var conditions: [String]
        var availability: [String]
        var whereClause: String?
        var accessModifiers: [String]
        var contentHash: String
        /// Set for a `ViewModifier`'s `body(content:)`.
        var modifierContent: BodyCandidate.ModifierContent? = nil
        /// The host values the body reads and its native-only leaves (docs/views.md "Tokens and
        /// slots"), evaluated natively: the values go in `tokens:`, the leaves in `slots:`.
        var tokens: [ViewToken] = []
    }

    /// The slot id under which a modifier's thunk passes its `content` (the guest's `Content` writes
    /// `{"opaque":{"id":"op_content",…}}` where the body places it).
    static let modifierContentSlot = "op_content"

    /// One opted-in function.
    struct FunctionThunk: Sendable {
        var extendedType: String?
        var candidate: FunctionCandidate
        var exportName: String
        var conditions: [String]
        var availability: [String]
        /// How an instance method sends `self` (nil for static and free functions).
        var receiver: ReceiverCoding? = nil
        /// The parameters and result that travel through value mirrors, and the mirrors' declarations.
        var values = ValueCodings()
    }

    /// The generated `body` that asks the SDK for the module's rendering and falls back to the
    /// view's own code, renamed `__patch_native_body`. (Why not `@_dynamicReplacement(for: body)`
    /// calling the original `body`, as sdk-contract §5.1 shows: docs/prepare.md "Why `body` is
    /// renamed" — that replacement's opaque result type contains itself and crashes at runtime.)
    ///
    /// A `ViewModifier`'s `body(content:)` routes the same way; its `content` (the native view it
    /// modifies, which the module cannot build) goes to the SDK as the slot `op_content`.
    static func view(_ thunk: ViewThunk) -> String {
        let access = thunk.accessModifiers.map { $0 + " " }.joined()
        var lines = thunk.availability
        lines.append("extension \(thunk.extendedType)\(thunk.whereClause.map { " " + $0 } ?? "") {")
        lines.append("    // patch-body-sha256: \(thunk.contentHash)")
        let typeName = SwiftLiteral.string(thunk.typeName)
        // The closure runs only when the view is routed (§5.1): an unpatched view evaluates none of it.
        let values = thunk.tokens.filter { $0.kind != .slot }
        let tokens = values.isEmpty ? "" : ", tokens: { [" + values.map(\.thunkEntry).joined(separator: ", ") + "] }"
        let slots = thunk.tokens.filter { $0.kind == .slot }.map(\.thunkEntry)
        if let content = thunk.modifierContent {
            let name = SwiftIdentifier.escaped(content.internalName)
            // `content content:` would draw the compiler's "extraneous duplicate parameter name".
            let parameter = content.internalName == "content" ? "content" : "content \(name)"
            let entries = (["\(SwiftLiteral.string(modifierContentSlot)): { AnyView(\(name)) }"] + slots).joined(separator: ", ")
            lines.append("    @ViewBuilder @MainActor \(access)func body(\(parameter): \(content.type)) -> some View {")
            lines.append("        if let __p = Patch.shared.thunkBody(typeName: \(typeName), instance: self, slots: { [\(entries)] }\(tokens)) {")
            lines.append("            __p")
            lines.append("        } else {")
            lines.append("            \(PreparedNames.nativeBody)(content: \(name))")
        } else {
            lines.append("    @ViewBuilder @MainActor \(access)var body: some View {")
            let slotArgument = slots.isEmpty ? "" : ", slots: { [" + slots.joined(separator: ", ") + "] }"
            lines.append("        if let __p = Patch.shared.thunkBody(typeName: \(typeName), instance: self\(slotArgument)\(tokens)) {")
            lines.append("            __p")
            lines.append("        } else {")
            lines.append("            \(PreparedNames.nativeBody)")
        }
        lines.append("        }")
        lines.append("    }")
        lines.append("}")
        return wrap(lines, in: thunk.conditions)
    }

    /// A `@_dynamicReplacement` of an opted-in function: calls the module's export with the
    /// arguments as a JSON object (keys = parameter names) when the active module has it, decodes
    /// the result, and otherwise (or when the call fails) runs the original function.
    ///
    /// An instance method sends `self` as the `"self"` key (`ReceiverCoding`); a `mutating` one reads
    /// `{"value": …, "self": …}` back (no `value` when it returns nothing) and writes the new `self`
    /// before returning. A Void function reads `{}` and returns: its effects are the module's, and when
    /// the call fails the original runs instead. Nothing of this runs unless the module has the export.
    static func function(_ thunk: FunctionThunk) -> String {
        let function = thunk.candidate
        if function.isInitializer, let receiver = thunk.receiver { return initializer(thunk, receiver: receiver) }
        let indent = thunk.extendedType == nil ? "" : "    "
        let parameterList = parameterList(of: function)
        // A computed property's replacement reads the original property where a function calls it.
        let originalCall = function.isProperty ? function.baseName : "\(function.baseName)(" + function.parameters.map { parameter in
            (parameter.label.map { "\($0): " } ?? "") + SwiftIdentifier.escaped(parameter.internalName)
        }.joined(separator: ", ") + ")"
        // Backticks belong to declarations and calls; a selector names `default(for:)` bare.
        let selector = function.isProperty ? function.baseName.replacingOccurrences(of: "`", with: "")
            : "\(function.baseName)(" + function.parameters.map { (($0.label ?? "_") + ":").replacingOccurrences(of: "`", with: "") }.joined() + ")"
        let returnType = function.returnType ?? "Void"
        let returnsValue = function.returnsValue
        let staticKeyword = function.isStatic ? function.staticKeyword + " " : function.isMutating ? "mutating " : ""
        let receiver = thunk.receiver
        let writesBack = receiver?.writesBack(mutating: function.isMutating) ?? false
        let values = thunk.values
        let (fields, arguments) = argumentFields(thunk)
        // The result's field, and the returned value built from it.
        let resultType = values.result?.fieldType ?? returnType
        let resultValue = { (field: String) in values.result?.decode(field) ?? field }
        var resultFields = returnsValue ? ["let value: \(resultType)"] : []
        if let receiver {
            if writesBack {
                resultFields.append("let __self: \(receiver.fieldType)")
                let resultKeys: [String] = (returnsValue ? ["value"] : []) + ["__self = \"self\""]
                resultFields.append("enum CodingKeys: String, CodingKey { case \(resultKeys.joined(separator: ", ")) }")
            }
        }
        if !function.throwsEffect, !writesBack { resultFields += refusingGuestErrors(value: returnsValue ? resultType : nil) }
        let export = SwiftLiteral.string(thunk.exportName)

        var body: [String] = []
        body.append("// patch-function-sha256: \(function.contentHash)")
        body += thunk.availability
        body.append("@_dynamicReplacement(for: \(selector))")
        let replacementName = PreparedNames.functionReplacementPrefix + function.baseName.replacingOccurrences(of: "`", with: "")
        body.append(function.isProperty ? "\(staticKeyword)var \(replacementName): \(returnType) {"
            : "\(staticKeyword)func \(replacementName)(\(parameterList))\(function.throwsEffect ? " throws" : "") -> \(returnType) {")
        body += values.declarations.map { "    " + $0 }
        if let mirror = receiver?.declaration(conformance: writesBack ? "Codable" : "Encodable") { body.append("    " + mirror) }
        body.append("    struct __PatchArguments: Encodable { \(fields.joined(separator: "; ")) }")
        if function.throwsEffect {
            body += thrownResult(value: returnsValue ? resultType : nil, receiver: writesBack ? receiver?.fieldType : nil).map { "    " + $0 }
        } else {
            body.append("    struct __PatchResult: Decodable { \(resultFields.joined(separator: "; ")) }")
        }
        let call = "Patch.shared.callJSON(\(export), __PatchArguments(\(arguments.joined(separator: ", "))), returning: __PatchResult.self)"
        // What the module threw is thrown here, as the original would have.
        let answer = !function.throwsEffect ? [returnsValue ? "return \(resultValue("__result.value"))" : "return"]
            : returnsValue ? ["return \(resultValue("try __result.value.get()"))"] : ["try __result.value.get()", "return"]
        if let receiver, case .object = receiver {
            // The mirror as sent is kept to find what the module changed; it is built only when the
            // module has the export.
            body.append("    if Patch.shared.hasFunction(\(export)) {")
            body.append("        let \(ReceiverCoding.sentName) = \(receiver.encodedSelf)")
            body.append("        if let __result = try? \(call) {")
            body += receiver.writeBack(from: "__result.__self").map { "            " + $0 }
            body += answer.map { "            " + $0 }
            body.append("        }")
            body.append("    }")
        } else {
            body.append("    if Patch.shared.hasFunction(\(export)),")
            // A Void function that writes nothing back and cannot throw answers `{}`: only that the call succeeded matters.
            body.append("       let \(returnsValue || writesBack || function.throwsEffect ? "__result" : "_") = try? \(call) {")
            if let receiver, writesBack {
                body += receiver.writeBack(from: "__result.__self").map { "        " + $0 }
            }
            body += answer.map { "        " + $0 }
            body.append("    }")
        }
        body.append("    return \(function.throwsEffect ? "try " : "")\(originalCall)")
        body.append("}")
        if function.isProperty, function.hasSetter { body = withSetter(body, thunk: thunk) }

        var lines: [String] = []
        if let extendedType = thunk.extendedType {
            lines.append("extension \(extendedType)\(function.context.extensionWhereClause.map { " " + $0 } ?? "") {")
            lines += body.map { indent + $0 }
            lines.append("}")
        } else {
            lines = body
        }
        return wrap(lines, in: thunk.conditions)
    }

    /// A function's parameters as its declaration spells them (labels, names, types).
    private static func parameterList(of function: FunctionCandidate) -> String {
        function.parameters.map { parameter in
            let label = parameter.label ?? "_"
            return label == parameter.internalName ? "\(label): \(parameter.type)" : "\(label) \(parameter.internalName): \(parameter.type)"
        }.joined(separator: ", ")
    }

    /// The fields of a thunk's `__PatchArguments` (keys = parameter names, and `"self"` for an
    /// instance method's receiver) and the arguments that build it.
    private static func argumentFields(_ thunk: FunctionThunk) -> (fields: [String], arguments: [String]) {
        let function = thunk.candidate
        let values = thunk.values
        var fields = function.parameters.map { "let \(SwiftIdentifier.escaped($0.internalName)): \(values.fieldType(ofParameter: $0.internalName, written: $0.type))" }
        var arguments = function.parameters.map { "\($0.internalName.replacingOccurrences(of: "`", with: "")): \(values.encode(parameter: $0.internalName, SwiftIdentifier.escaped($0.internalName)))" }
        if let receiver = thunk.receiver {
            // `self` cannot name a field: `__self` is keyed "self" through CodingKeys.
            let keys = ["__self = \"self\""] + function.parameters.map { SwiftIdentifier.escaped($0.internalName) }
            fields.insert("let __self: \(receiver.fieldType)", at: 0)
            fields.append("enum CodingKeys: String, CodingKey { case \(keys.joined(separator: ", ")) }")
            if case .object = receiver {
                arguments.insert("__self: \(ReceiverCoding.sentName)", at: 0)
            } else {
                arguments.insert("__self: \(receiver.encodedSelf)", at: 0)
            }
        }
        return (fields, arguments)
    }

    /// The helper a routed async function's `AsyncPrologue` awaits (docs/async.md "The app side"):
    /// nil unless the active module has the function's kickoff (`patch_start_<export>`, the thunk's
    /// `exportName`) and answers; otherwise what the module's task returned or threw.
    ///
    /// The arguments go as the JSON object a synchronous thunk sends; `callPackedAsync` pumps the
    /// module's task to its end synchronously (sdk-contract §4), so it runs in a detached task, off
    /// the caller's actor. The answer is `{"value": …}` (`{}` for Void), `{"thrown": {"type", "value"}}`
    /// (thrown as `__PatchThrown`, as a synchronous thunk does), `{"urlError": code}` (an awaited
    /// request's transport failure, thrown as `URLError(.unknown)`: the SDK reports no cause, the code
    /// is -1), or `{"error": …}` (the module could not read the arguments: nil, the original runs). A function that does not throw reads only
    /// `{"value"}`: the module's copy of it awaits nothing that throws either.
    ///
    /// A class's method sends the mirror of the object's stored properties, as a synchronous class
    /// method's thunk does (`ReceiverCoding.object`), and every answer but `{"error"}` carries the
    /// object as the module's task left it (`"self"`): the properties the module changed are written
    /// back when the task ends, whatever it returned or threw, before the caller continues.
    static func asyncHelper(_ thunk: FunctionThunk) -> String {
        let function = thunk.candidate
        let parameterList = parameterList(of: function)
        let returnType = function.returnType ?? "Void"
        let returnsValue = function.returnsValue
        let values = thunk.values
        let resultType = values.result?.fieldType ?? returnType
        let resultValue = { (field: String) in values.result?.decode(field) ?? field }
        let (fields, arguments) = argumentFields(thunk)
        let export = SwiftLiteral.string(thunk.exportName)
        let staticKeyword = function.isStatic ? function.staticKeyword + " " : ""
        // A class's method: the object comes back with every answer.
        var object: ReceiverCoding?
        if let receiver = thunk.receiver, case .object = receiver { object = receiver }

        var body: [String] = []
        body.append("// patch-function-sha256: \(function.contentHash)")
        body += thunk.availability
        body.append("\(staticKeyword)func \(AsyncPrologue.helperName(of: function.baseName))(\(parameterList)) async -> "
            + (function.throwsEffect ? "Result<\(returnType), any Error>? {" : "(\(returnType))? {"))
        body += values.declarations.map { "    " + $0 }
        if let mirror = thunk.receiver?.declaration(conformance: object == nil ? "Encodable" : "Codable") { body.append("    " + mirror) }
        body.append("    struct __PatchArguments: Encodable { \(fields.joined(separator: "; ")) }")
        if function.throwsEffect {
            body += [
                "    " + thrownErrorDeclaration,
                "    struct __PatchResult: Decodable {",
                "        let value: Result<\(resultType), any Error>",
            ]
            if let object { body.append("        let __self: \(object.fieldType)") }
            body += [
                "        enum CodingKeys: String, CodingKey { case value, thrown, urlError, error\(object == nil ? "" : ", __self = \"self\"") }",
                "        init(from decoder: any Decoder) throws {",
                "            let container = try decoder.container(keyedBy: CodingKeys.self)",
                "            " + refuseGuestError,
            ]
            if let object { body.append("            __self = try container.decode(\(object.fieldType).self, forKey: .__self)") }
            body += [
                "            if let thrown = try container.decodeIfPresent(__PatchThrown.self, forKey: .thrown) {",
                "                value = .failure(thrown)",
                "            } else if container.contains(.urlError) {",
                "                value = .failure(URLError(.unknown))",
                "            } else {",
                "                value = .success(\(returnsValue ? "try container.decode(\(resultType).self, forKey: .value)" : "()"))",
                "            }",
                "        }",
                "    }",
            ]
        } else if let object {
            // `"self"` is required: `{"error"}` does not decode.
            let keys = (returnsValue ? ["value"] : []) + ["__self = \"self\""]
            let resultFields = (returnsValue ? ["let value: \(resultType)"] : []) + ["let __self: \(object.fieldType)", "enum CodingKeys: String, CodingKey { case \(keys.joined(separator: ", ")) }"]
            body.append("    struct __PatchResult: Decodable { \(resultFields.joined(separator: "; ")) }")
        } else {
            let resultFields = (returnsValue ? ["let value: \(resultType)"] : []) + refusingGuestErrors(value: returnsValue ? resultType : nil)
            body.append("    struct __PatchResult: Decodable { \(resultFields.joined(separator: "; ")) }")
        }
        if let object {
            // The mirror as sent is kept to find what the module changed.
            body.append("    guard Patch.shared.hasFunction(\(export)) else { return nil }")
            body.append("    let \(ReceiverCoding.sentName) = \(object.encodedSelf)")
            body.append("    guard let __input = try? JSONEncoder().encode(__PatchArguments(\(arguments.joined(separator: ", ")))) else { return nil }")
        } else {
            body.append("    guard Patch.shared.hasFunction(\(export)),")
            body.append("          let __input = try? JSONEncoder().encode(__PatchArguments(\(arguments.joined(separator: ", ")))) else { return nil }")
        }
        body.append("    let __bytes = Array(__input)")
        body.append("    guard let __output = try? await Task.detached(operation: { try Patch.shared.callPackedAsync(\(export), __bytes, resultExport: \(SwiftLiteral.string(PatchNames.asyncResultExport))) }).value,")
        body.append("          let \(returnsValue || function.throwsEffect || object != nil ? "__result" : "_") = try? JSONDecoder().decode(__PatchResult.self, from: Data(__output)) else { return nil }")
        if let object { body += object.writeBack(from: "__result.__self").map { "    " + $0 } }
        if function.throwsEffect {
            body.append(values.result == nil ? "    return __result.value" : "    return __result.value.map { \(resultValue("$0")) }")
        } else {
            body.append(returnsValue ? "    return \(resultValue("__result.value"))" : "    return ()")
        }
        body.append("}")
        guard let extendedType = thunk.extendedType else { return wrap(body, in: thunk.conditions) }
        let lines = ["extension \(extendedType)\(function.context.extensionWhereClause.map { " " + $0 } ?? "") {"] + body.map { "    " + $0 } + ["}"]
        return wrap(lines, in: thunk.conditions)
    }

    /// A property's replacement (`function` wrote its getter's body as the whole body) with `get`
    /// and `set`: an instance setter sends `{"self": …, "newValue": …}` and takes the module's new
    /// `self`, `{"self": …}`, as a mutating method does; a `static` one, with no receiver for the
    /// module to change, sets the original.
    private static func withSetter(_ body: [String], thunk: FunctionThunk) -> [String] {
        let function = thunk.candidate
        guard let header = body.firstIndex(where: { $0.hasSuffix("var \(PreparedNames.functionReplacementPrefix)\(function.baseName.replacingOccurrences(of: "`", with: "")): \(function.returnType ?? "Void") {") }) else { return body }
        var lines = Array(body[...header])
        lines.append("    get {")
        lines += body[(header + 1)..<(body.count - 1)].map { "    " + $0 }
        lines.append("    }")
        lines.append("    set {")
        if function.routesSetter, let receiver = thunk.receiver {
            let export = SwiftLiteral.string(PatchNames.propertySetterExport(typePath: function.ownerPath, name: function.baseName))
            lines += thunk.values.declarations.map { "        " + $0 }
            if let mirror = receiver.declaration(conformance: "Codable") { lines.append("        " + mirror) }
            lines.append("        struct __PatchArguments: Encodable { let __self: \(receiver.fieldType); let newValue: \(thunk.values.result?.fieldType ?? function.returnType ?? "Void"); enum CodingKeys: String, CodingKey { case __self = \"self\", newValue } }")
            lines.append("        struct __PatchResult: Decodable { let __self: \(receiver.fieldType); enum CodingKeys: String, CodingKey { case __self = \"self\" } }")
            lines.append("        if Patch.shared.hasFunction(\(export)),")
            lines.append("           let __result = try? Patch.shared.callJSON(\(export), __PatchArguments(__self: \(receiver.encodedSelf), newValue: \(thunk.values.result?.encode("newValue") ?? "newValue")), returning: __PatchResult.self) {")
            lines += receiver.writeBack(from: "__result.__self").map { "            " + $0 }
            lines.append("            return")
            lines.append("        }")
        }
        lines.append("        \(function.baseName) = newValue")
        lines.append("    }")
        lines.append("}")
        return lines
    }

    /// A `@_dynamicReplacement` of an initializer: runs the original (`self.init(…)` inside the
    /// replacement), then, when the active module has the export, takes the stored values the
    /// module's initializer produced from the same arguments (`{"value": <the new self>}`) — every
    /// `var`; a `let` keeps what the original set, as a value cannot be assigned twice (docs/prepare.md
    /// "Initializers"). The replacement's first label is prefixed, as it must differ from the original's.
    static func initializer(_ thunk: FunctionThunk, receiver: ReceiverCoding) -> String {
        let function = thunk.candidate
        let parameterList = function.parameters.enumerated().map { position, parameter in
            let label = position == 0 ? PreparedNames.functionReplacementPrefix + (parameter.label ?? "").replacingOccurrences(of: "`", with: "") : parameter.label ?? "_"
            return label == parameter.internalName ? "\(label): \(parameter.type)" : "\(label) \(parameter.internalName): \(parameter.type)"
        }.joined(separator: ", ")
        let originalCall = "self.init(" + function.parameters.map { parameter in
            (parameter.label.map { "\($0): " } ?? "") + SwiftIdentifier.escaped(parameter.internalName)
        }.joined(separator: ", ") + ")"
        let selector = "init(" + function.parameters.map { (($0.label ?? "_") + ":").replacingOccurrences(of: "`", with: "") }.joined() + ")"
        let values = thunk.values
        let fields = function.parameters.map { "let \(SwiftIdentifier.escaped($0.internalName)): \(values.fieldType(ofParameter: $0.internalName, written: $0.type))" }.joined(separator: "; ")
        let arguments = function.parameters.map { "\($0.internalName.replacingOccurrences(of: "`", with: "")): \(values.encode(parameter: $0.internalName, SwiftIdentifier.escaped($0.internalName)))" }
            .joined(separator: ", ")
        let export = SwiftLiteral.string(thunk.exportName)
        var body: [String] = []
        body.append("// patch-function-sha256: \(function.contentHash)")
        body += thunk.availability
        body.append("@_dynamicReplacement(for: \(selector))")
        body.append("init\(function.isFailable ? "?" : "")(\(parameterList))\(function.throwsEffect ? " throws" : "") {")
        body += values.declarations.map { "    " + $0 }
        if let mirror = receiver.declaration(conformance: "Decodable") { body.append("    " + mirror) }
        body.append("    struct __PatchArguments: Encodable { \(fields) }")
        // A failable initializer's module answers `{"value": null}` for nil: the key is required
        // (`refusingGuestErrors`), so the guest's `{"error": …}` never reads as nil.
        let valueType = receiver.fieldType + (function.isFailable ? "?" : "")
        if function.throwsEffect {
            body += thrownResult(value: valueType, receiver: nil).map { "    " + $0 }
        } else {
            body.append("    struct __PatchResult: Decodable { " + (["let value: \(valueType)"] + refusingGuestErrors(value: valueType)).joined(separator: "; ") + " }")
        }
        // A failable original that fails fails the replacement here, before the module is asked:
        // a patch can make it fail for more arguments, never for fewer (docs/prepare.md "Initializers").
        body.append("    \(function.throwsEffect ? "try " : "")\(originalCall)")
        body.append("    if Patch.shared.hasFunction(\(export)),")
        body.append("       let __result = try? Patch.shared.callJSON(\(export), __PatchArguments(\(arguments)), returning: __PatchResult.self) {")
        // The module's initializer threw: so does this one (after the original ran, as a throwing
        // initializer may after delegating).
        let value = function.throwsEffect ? "try __result.value.get()" : "__result.value"
        if function.isFailable {
            body.append("        guard let __value = \(value) else { return nil }")
            body += receiver.writeBack(from: "__value").map { "        " + $0 }
        } else if function.throwsEffect {
            body.append("        let __value = \(value)")
            body += receiver.writeBack(from: "__value").map { "        " + $0 }
        } else {
            body += receiver.writeBack(from: value).map { "        " + $0 }
        }
        body.append("    }")
        body.append("}")
        let lines = ["extension \(thunk.extendedType ?? "")\(function.context.extensionWhereClause.map { " " + $0 } ?? "") {"] + body.map { "    " + $0 } + ["}"]
        return wrap(lines, in: thunk.conditions)
    }

    /// A throwing function's result: `{"value": …}` or `{"thrown": {"type": "E", "value": "<E's JSON>"}}`
    /// (the guest's `writeThrownEnvelope`), decoded as a `Result` the thunk unwraps with `get()`, so
    /// the module's throw reaches the caller. The thrown error is `__PatchThrown`, carrying the
    /// error's type name and JSON: the caller's `catch E.case` does not match it (docs/prepare.md
    /// "Throwing functions"). A mutating method's new `self` comes back either way.
    /// The guest answers `{"error": …}` when it cannot decode the arguments (Prelude `_patchExport`),
    /// and the original must run then. A result that requires a key refuses that answer by itself;
    /// one that requires none (an optional value, or nothing for a Void function) would decode it
    /// as `nil` or as success, so it gets an initializer that refuses it: these are its extra members.
    static func refusingGuestErrors(value: String?) -> [String] {
        guard let value else {
            return ["enum CodingKeys: String, CodingKey { case error }",
                    "init(from decoder: any Decoder) throws { let container = try decoder.container(keyedBy: CodingKeys.self); "
                        + refuseGuestError + " }"]
        }
        let type = value.filter { !$0.isWhitespace }
        guard type.hasSuffix("?") || type.hasSuffix("!") || type.hasPrefix("Optional<") else { return [] }
        // `decode` (not the synthesized `decodeIfPresent`) requires the key; `null` is still `nil`.
        let optional = type.hasSuffix("!") ? "(\(type.dropLast()))?" : "(\(type))"
        return ["enum CodingKeys: String, CodingKey { case value }",
                "init(from decoder: any Decoder) throws { value = try decoder.container(keyedBy: CodingKeys.self).decode(\(optional).self, forKey: .value) }"]
    }

    /// Throws when a keyed `container` holds the guest's `error` key.
    private static let refuseGuestError = "if container.contains(.error) { throw DecodingError.dataCorruptedError(forKey: .error, in: container, debugDescription: \"the module refused the arguments\") }"

    /// The error a throwing thunk throws for the module's throw: its type name and JSON.
    private static let thrownErrorDeclaration = "struct __PatchThrown: Error, Decodable, CustomStringConvertible { let type: String; let value: String; var description: String { \"\\(type) thrown by the patch: \\(value)\" } }"

    static func thrownResult(value: String?, receiver: String?) -> [String] {
        let keys = ["value", "thrown"] + (receiver == nil ? (value == nil ? ["error"] : []) : ["__self = \"self\""])
        var lines = [
            thrownErrorDeclaration,
            "struct __PatchResult: Decodable {",
            "    let value: Result<\(value ?? "Void"), __PatchThrown>",
        ]
        if let receiver { lines.append("    let __self: \(receiver)") }
        lines.append("    enum CodingKeys: String, CodingKey { case \(keys.joined(separator: ", ")) }")
        lines.append("    init(from decoder: any Decoder) throws {")
        lines.append("        let container = try decoder.container(keyedBy: CodingKeys.self)")
        if let receiver { lines.append("        __self = try container.decode(\(receiver).self, forKey: .__self)") }
        if value == nil, receiver == nil {
            // Nothing else is required: `{"error": …}` (the guest could not decode the arguments) must not read as success.
            lines.append("        " + refuseGuestError)
        }
        let success = value.map { "try container.decode(\($0).self, forKey: .value)" } ?? "()"
        lines.append("        value = try container.decodeIfPresent(__PatchThrown.self, forKey: .thrown).map { .failure($0) } ?? .success(\(success))")
        lines.append("    }")
        lines.append("}")
        return lines
    }

    /// Imports routed views need: SwiftUI, `Patch` (PatchSDK) and `thunkBody` (PatchSwiftUI, which does
    /// not re-export PatchSDK; sdk-contract §5.1).
    static let viewImports = ["import SwiftUI", "import PatchSDK", "import PatchSwiftUI"]
    /// `PatchHostToken`, which a thunk passing tokens builds (PatchSwiftUI does not re-export it).
    static let tokenImports = ["import PatchRender"]
    /// `JSONEncoder`, which a thunk passing a Codable host value as a JSON token calls.
    static let jsonTokenImports = ["import Foundation"]
    /// Imports routed functions need: `Patch.hasFunction` and `Patch.callJSON` only, so logic targets stay free of SwiftUI.
    static let functionImports = ["import PatchSDK"]
    /// An async function's helper encodes and decodes the JSON itself, and may throw a `URLError`.
    static let asyncImports = functionImports + ["import Foundation"]
    /// A function's imports; a class method's thunk adds Foundation for `JSONEncoder`, which compares
    /// each property as sent and as returned.
    static func functionImports(receiver: ReceiverCoding?) -> [String] {
        if case .object? = receiver { return functionImports + ["import Foundation"] }
        return functionImports
    }

    /// A whole generated file for one target.
    static func file(targets: [String], imports: [String], thunks: [String]) -> String {
        var text = PreparedNames.generatedHeader + "\n"
        let owners = targets.count == 1 ? "target \(targets[0])" : "targets " + targets.joined(separator: ", ")
        text += "// Routes the patchable views and functions of \(owners) in this source folder through Patch (docs/prepare.md).\n\n"
        text += imports.joined(separator: "\n") + "\n"
        appendThunks(thunks, to: &text)
        return text
    }

    /// Each thunk after an empty line, appended in place (thousands of them in a large app).
    private static func appendThunks(_ thunks: [String], to text: inout String) {
        text.reserveCapacity(text.utf8.count + thunks.reduce(0) { $0 + $1.utf8.count + 2 })
        for thunk in thunks {
            text += "\n"
            text += thunk
            text += "\n"
        }
    }

    /// The section appended to a file whose views are private to it.
    static func section(imports: [String], thunks: [String]) -> String {
        var text = "\n" + PreparedNames.sectionBegin + "\n" + imports.joined(separator: "\n") + "\n"
        appendThunks(thunks, to: &text)
        return text + PreparedNames.sectionEnd + "\n"
    }

    /// The fingerprint constant the app passes to `Patch.configure` (sdk-contract §7.1). An app that
    /// ships builds for several platforms gets one constant per platform, each under the `#if` that
    /// only its build compiles (the first, default platform's under `#else`), so the launch code
    /// passes every binary's own fingerprint (docs/prepare.md "Platforms").
    static func fingerprintFile(canonicalBaseline: [UInt8], platforms: [AppPlatform]) -> String {
        func constant(_ platform: AppPlatform, indent: String) -> String {
            indent + "static let value = " + SwiftLiteral.string(BuildFingerprint.compute(canonicalBaseline: canonicalBaseline, platform: platform))
        }
        guard let primary = platforms.first, platforms.count > 1 else {
            return fingerprintFile(fingerprint: BuildFingerprint.compute(canonicalBaseline: canonicalBaseline, platform: platforms.first ?? .iOS))
        }
        var lines: [String] = []
        for (position, platform) in platforms.dropFirst().enumerated() {
            lines.append("    " + (position == 0 ? "#if " : "#elseif ") + platform.compilationCondition)
            lines.append(constant(platform, indent: "    "))
        }
        lines += ["    #else", constant(primary, indent: "    "), "    #endif"]
        return fingerprintFile(body: lines.joined(separator: "\n"), perPlatform: true)
    }

    /// The file of an app that ships for one platform.
    static func fingerprintFile(fingerprint: String) -> String {
        fingerprintFile(body: "    static let value = " + SwiftLiteral.string(fingerprint), perPlatform: false)
    }

    private static func fingerprintFile(body: String, perPlatform: Bool) -> String {
        let platformNote = perPlatform ? "\n/// Each platform's build has its own: the baseline's `platforms`, the first under `#else`." : ""
        return """
        \(PreparedNames.generatedHeader)

        /// The fingerprint of this native build: SHA-256 of `.patch/baseline.json` plus the call ABI and
        /// view IR versions (docs/prepare.md). Pass it as `PatchConfiguration(fingerprint:)` so the
        /// backend only offers modules built against this binary.\(platformNote)
        enum PatchBuildFingerprint {
        \(body)
        }

        """
    }

    private static func wrap(_ lines: [String], in conditions: [String]) -> String {
        guard !conditions.isEmpty else { return lines.joined(separator: "\n") }
        return (["#if " + conditions.joined(separator: " && ")] + lines + ["#endif"]).joined(separator: "\n")
    }
}
