import SwiftSyntax

/// Generates the JSON codecs of project types (Embedded Swift has no Codable) and the export glue,
/// in the shapes JSONEncoder uses on the device (see the function-patching convention).
struct GuestCodecGenerator {
    let index: GuestSourceIndex
    let reader: GuestSignatureReader
    /// Enums also decode from a view's inputs, where the host writes them as `{"case":"name",…}`
    /// (sdk-contract §5.4); modules without views do without that code.
    var readsViewInputs = false
    /// Classes whose methods are exported: each travels as its mirror (`receiverMirror(of:)`).
    var receiverClasses: Set<Int> = []
    /// Classes whose objects a receiver's stored properties reference (`referencedObjects(ofReceiver:)`),
    /// which travel as copies one level deep. A class that is both has its receiver's codec: the keys a
    /// copy lacks are its references, optional, which it decodes as nil.
    var referencedClasses: Set<Int> = []
    /// Structs with property wrappers whose methods are exported: each travels as the copy a method
    /// only reading `self` receives (`GuestSignatureReader.structCopy`), its wrappers blanked.
    var copiedStructs: Set<Int> = []

    private func shape(of type: Int) -> Result<GuestSignatureReader.CodableShape, GuestSignatureReader.Problem> {
        let asReceiver = receiverClasses.contains(type) || copiedStructs.contains(type), asReferenced = referencedClasses.contains(type)
        // A copy's fields are those the dependency closure lays out and `staticProblem` checks, both
        // with the plain reader: a module that also lowers views resolves the DSL's stand-ins
        // (`CGFloat`…) for its own codecs, which would give the copy fields its declaration lacks.
        let copyReader = asReceiver || asReferenced ? GuestSignatureReader(index: index) : reader
        return copyReader.codableShape(of: type, asReceiver: asReceiver, asReferenced: asReferenced)
    }

    /// `extension Type: _PatchJSONCodable { init(_patchJSON:) … _patchEncode(into:) … }`.
    func emitCodec(for type: Int, into writer: inout GuestSourceWriter) {
        guard case .success(let shape) = shape(of: type) else { return }
        let name = index.types[type].qualifiedName
        writer.line("extension \(name): _PatchJSONCodable {")
        if shape.isClass {
            // Its `init(_patchJSON:)` is in the class's body (`emitClassDecoder`).
            emitFieldEncoder(shape, into: &writer)
            writer.line("}")
            return
        }
        let rawValues = shape.cases.compactMap(\.stringRawValue)
        if shape.rawType == .string, !shape.cases.isEmpty, rawValues.count == shape.cases.count {
            // Byte comparison: `init(rawValue:)` compares Strings, which links Unicode normalization
            // (tens of KB) into the module.
            writer.line("    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {")
            emitViewCaseDecoding(into: &writer)
            writer.line("        guard let bytes = try value.string() else { throw _PatchDecodeError(\"expected a String for \(name)\") }")
            for (element, rawValue) in zip(shape.cases, rawValues) {
                writer.line("        if _patchBytesEqual(bytes, \(literal(rawValue))) { self = .\(element.name); return }")
            }
            writer.line("        throw _PatchDecodeError(\"unknown raw value for \(name)\")")
            writer.line("    }")
            writer.line("    func _patchEncode(into writer: inout _PatchJSONWriter) { rawValue._patchEncode(into: &writer) }")
            if readsViewInputs { emitCaseLookup(name: name, shape: shape, into: &writer) }
        } else if let rawType = shape.rawType {
            writer.line("    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {")
            emitViewCaseDecoding(into: &writer)
            writer.line("        guard let decoded = \(name)(rawValue: try \(rawType.spelling(index))(_patchJSON: value)) else { throw _PatchDecodeError(\"unknown raw value for \(name)\") }")
            writer.line("        self = decoded")
            writer.line("    }")
            writer.line("    func _patchEncode(into writer: inout _PatchJSONWriter) { rawValue._patchEncode(into: &writer) }")
            if readsViewInputs { emitCaseLookup(name: name, shape: shape, into: &writer) }
        } else if shape.isEnum {
            emitEnumCodec(name: name, shape: shape, into: &writer)
        } else {
            emitStructCodec(name: name, shape: shape, into: &writer)
        }
        writer.line("}")
    }

    /// The guest's copy of a receiver class, or of an object it references, is built from its mirror's
    /// JSON by a designated initializer in the class's body (the `init(_patchJSON:)` `_PatchJSONCodable`
    /// requires of it).
    func emitClassDecoder(for type: Int, into writer: inout GuestSourceWriter) {
        guard receiverClasses.contains(type) || referencedClasses.contains(type), case .success(let shape) = shape(of: type) else { return }
        emitFieldDecoder(name: index.types[type].qualifiedName, shape: shape, into: &writer)
    }

    private func emitStructCodec(name: String, shape: GuestSignatureReader.CodableShape, into writer: inout GuestSourceWriter) {
        emitFieldDecoder(name: name, shape: shape, into: &writer)
        emitFieldEncoder(shape, into: &writer)
    }

    private func emitFieldDecoder(name: String, shape: GuestSignatureReader.CodableShape, into writer: inout GuestSourceWriter) {
        writer.line("    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {")
        writer.line("        guard value.isObject else { throw _PatchDecodeError(\"expected a JSON object for \(name)\") }")
        for field in shape.fields where !field.isConstant {
            let decode = "try value.decode(\(literal(field.key)), as: \(field.type.spelling(index)).self)"
            if field.hasDefault {
                writer.line("        if value.hasMember(\(literal(field.key))) { self.\(field.name) = \(decode) }")
            } else {
                writer.line("        self.\(field.name) = \(decode)")
            }
        }
        writer.line("    }")
    }

    private func emitFieldEncoder(_ shape: GuestSignatureReader.CodableShape, into writer: inout GuestSourceWriter) {
        writer.line("    func _patchEncode(into writer: inout _PatchJSONWriter) {")
        writer.line("        writer.append(UInt8(ascii: \"{\"))")
        // JSONEncoder omits nil optionals, so whether a comma is due is known only at run time.
        writer.line("        var first = true")
        writer.line("        _ = first")
        for field in shape.fields {
            if field.type.isOptional {
                writer.line("        if let present = self.\(field.name) {")
                writer.line("            if !first { writer.append(UInt8(ascii: \",\")) }; first = false")
                writer.line("            writer.writeKey(\(literal(field.key))); present._patchEncode(into: &writer)")
                writer.line("        }")
            } else {
                writer.line("        if !first { writer.append(UInt8(ascii: \",\")) }; first = false")
                writer.line("        writer.writeKey(\(literal(field.key))); self.\(field.name)._patchEncode(into: &writer)")
            }
        }
        writer.line("        writer.append(UInt8(ascii: \"}\"))")
        writer.line("    }")
    }

    /// Enums without raw values: `{"case":{}}`, payloads as `{"case":{"_0":…,"label":…}}` (JSONEncoder's
    /// shape, which the guest writes and the host's JSONDecoder reads back); a view's inputs carry
    /// them as `{"case":"name","_0":…}` (§5.4), which decodes too.
    private func emitEnumCodec(name: String, shape: GuestSignatureReader.CodableShape, into writer: inout GuestSourceWriter) {
        writer.line("    init(_patchJSON value: _PatchJSONValue) throws(_PatchDecodeError) {")
        emitViewCaseDecoding(into: &writer)
        writer.line("        let entry = try value.singleMember(\"expected a single-key object for enum \(name)\")")
        writer.line("        self = try Self._patchCase(entry.key, payload: entry.value)")
        writer.line("    }")
        emitCaseLookup(name: name, shape: shape, into: &writer)
        writer.line("    func _patchEncode(into writer: inout _PatchJSONWriter) {")
        writer.line("        switch self {")
        for enumCase in shape.cases {
            let bindings = enumCase.payload.indices.map { "let value\($0)" }
            let pattern = enumCase.payload.isEmpty ? "" : "(" + bindings.joined(separator: ", ") + ")"
            writer.line("        case .\(SwiftIdentifier.escaped(enumCase.name))\(pattern):")
            writer.line("            writer.append(UInt8(ascii: \"{\")); writer.writeKey(\(literal(enumCase.name))); writer.append(UInt8(ascii: \"{\"))")
            for (position, field) in enumCase.payload.enumerated() {
                if position > 0 { writer.line("            writer.append(UInt8(ascii: \",\"))") }
                writer.line("            writer.writeKey(\(literal(field.key))); value\(position)._patchEncode(into: &writer)")
            }
            writer.line("            writer.append(UInt8(ascii: \"}\")); writer.append(UInt8(ascii: \"}\"))")
        }
        writer.line("        }")
        writer.line("    }")
    }

    /// In a view's inputs an enum is `{"case":"name",…}` whatever its raw type (the case name, not the
    /// raw value; payloads beside it).
    private func emitViewCaseDecoding(into writer: inout GuestSourceWriter) {
        guard readsViewInputs else { return }
        writer.line("        if let viewCase = try value.viewCaseName() { self = try Self._patchCase(viewCase, payload: value); return }")
    }

    /// `_patchCase(_:payload:)`: the case named `name`, its payload read from the members of `payload`
    /// (by label, or `_0`, `_1`…), in either shape an enum arrives in.
    private func emitCaseLookup(name: String, shape: GuestSignatureReader.CodableShape, into writer: inout GuestSourceWriter) {
        writer.line("    static func _patchCase(_ name: borrowing _PatchBytes, payload: _PatchJSONValue) throws(_PatchDecodeError) -> Self {")
        writer.line("        _ = payload")
        for enumCase in shape.cases {
            if enumCase.payload.isEmpty {
                writer.line("        if _patchBytesEqual(name, \(literal(enumCase.name))) { return .\(SwiftIdentifier.escaped(enumCase.name)) }")
            } else {
                let arguments = enumCase.payload.map { field in
                    let decode = "try payload.decode(\(literal(field.key)), as: \(field.type.spelling(index)).self)"
                    return field.label.map { "\($0): \(decode)" } ?? decode
                }
                writer.line("        if _patchBytesEqual(name, \(literal(enumCase.name))) { return .\(SwiftIdentifier.escaped(enumCase.name))(\(arguments.joined(separator: ", "))) }")
            }
        }
        writer.line("        throw _PatchDecodeError(\"unknown case for enum \(name)\")")
        writer.line("    }")
    }

    /// The packed-JSON export and, when the signature allows, the scalar fast path.
    func emitGlue(for plan: GuestExportPlan, into writer: inout GuestSourceWriter) {
        if plan.isAsync { return emitAsyncGlue(for: plan, into: &writer) }
        let symbol = plan.name.jsonSymbol
        writer.line("@_cdecl(\"\(symbol)\")")
        writer.line("public func _\(symbol)(_ input: UnsafePointer<UInt8>?, _ length: Int32) -> Int64 {")
        writer.line("    _patchExport(input, length) { arguments, writer throws(_PatchDecodeError) in")
        var receiver = callee(plan)
        if plan.isInstanceMethod, let owner = plan.owner {
            // A class's copy changes through its reference.
            let binding = plan.isMutating && index.types[owner].kind != .classType ? "var" : "let"
            writer.line("        \(binding) receiver = try arguments.decode(\"self\", as: \(index.types[owner].qualifiedName).self)")
            receiver = "receiver." + SwiftIdentifier.escaped(plan.name.baseName)
        }
        for (position, parameter) in plan.parameters.enumerated() {
            writer.line("        let argument\(position) = try arguments.decode(\(literal(parameter.name)), as: \(parameter.type.spelling(index)).self)")
        }
        // A getter is read where a function is called.
        let arguments = plan.name.isSetter ? " = argument0" : plan.name.isGetter ? "" : "(" + callArguments(plan, values: plan.parameters.indices.map { "argument\($0)" }) + ")"
        let call = (plan.thrownError == nil ? "" : "try ") + receiver + arguments
        var success: [String] = []
        if plan.isMutating {
            // The receiver after the call is a result: `{"value": …, "self": …}` (docs/prepare.md).
            if plan.result == nil {
                success = [call, "writer.writeMutatingEnvelope(receiver: receiver)"]
            } else {
                success = ["let value = \(call)", "writer.writeMutatingEnvelope(value, receiver: receiver)"]
            }
        } else if plan.result == nil {
            success = [call, "writer.writeVoidEnvelope()"]
        } else {
            success = ["writer.writeValueEnvelope(\(call))"]
        }
        if let thrown = plan.thrownError {
            // What the function throws is a result too: `{"thrown": …}`, which the thunk rethrows.
            let type = thrown.spelling(index)
            writer.line("        do throws(\(type)) {")
            for line in success { writer.line("            " + line) }
            writer.line("        } catch {")
            writer.line("            writer.writeThrownEnvelope(\(literal(type)), error\(plan.isMutating ? ", receiver: receiver" : ""))")
            writer.line("        }")
        } else {
            for line in success { writer.line("        " + line) }
        }
        writer.line("    }")
        writer.line("}")
        guard plan.hasScalarFastPath else { return }
        let parameters = plan.parameters.enumerated().map { "_ argument\($0.offset): \($0.element.type.scalarABISpelling ?? "")" }
        let resultSpelling = plan.result?.scalarABISpelling.map { " -> \($0)" } ?? ""
        // Int is 32-bit in the guest and 64-bit on the device: a value out of Int32's range traps,
        // which the SDK reports as a failed call instead of returning a wrong number.
        let values = plan.parameters.enumerated().map { $0.element.type == .int ? "Int(argument\($0.offset))" : "argument\($0.offset)" }
        let scalarCall = callee(plan) + (plan.name.isGetter ? "" : "(" + callArguments(plan, values: values) + ")")
        writer.line("@_cdecl(\"\(plan.name.scalarSymbol)\")")
        writer.line("public func _\(plan.name.scalarSymbol)(\(parameters.joined(separator: ", ")))\(resultSpelling) {")
        writer.line(plan.result == .int ? "    Int64(\(scalarCall))" : "    \(scalarCall)")
        writer.line("}")
    }

    /// An async function's kickoff (sdk-contract §4, blob variant): decodes the arguments, queues the
    /// call of its continuation form (`GuestAsyncTransform`), and ends the task with the envelope a
    /// packed call would answer, or `{"urlError": code}` when a request it awaited failed in transport.
    private func emitAsyncGlue(for plan: GuestExportPlan, into writer: inout GuestSourceWriter) {
        let symbol = plan.exportSymbol
        writer.line("@_cdecl(\"\(symbol)\")")
        writer.line("public func _\(symbol)(_ input: UnsafePointer<UInt8>?, _ length: Int32) {")
        writer.line("    _patchAsyncStart(input, length) { arguments throws(_PatchDecodeError) in")
        var receiver = callee(plan)
        if plan.isInstanceMethod, let owner = plan.owner {
            writer.line("        let receiver = try arguments.decode(\"self\", as: \(index.types[owner].qualifiedName).self)")
            receiver = "receiver." + SwiftIdentifier.escaped(plan.name.baseName)
        }
        for (position, parameter) in plan.parameters.enumerated() {
            writer.line("        let argument\(position) = try arguments.decode(\(literal(parameter.name)), as: \(parameter.type.spelling(index)).self)")
        }
        let arguments = callArguments(plan, values: plan.parameters.indices.map { "argument\($0)" })
        writer.line("        return {")
        writer.line("            \(receiver)(\(arguments)) { outcome in")
        writer.line("                _patchAsyncFinish { writer in")
        writer.line("                    switch outcome {")
        // A class's method (the only async method that changes its receiver): the object as the task
        // left it goes back with every outcome, for the app to write back what changed.
        let object = plan.isMutating ? ", receiver: receiver" : ""
        if plan.result == nil {
            writer.line(plan.isMutating ? "                    case .value: writer.writeMutatingEnvelope(receiver: receiver)" : "                    case .value: writer.writeVoidEnvelope()")
        } else {
            writer.line(plan.isMutating ? "                    case .value(let value): writer.writeMutatingEnvelope(value, receiver: receiver)" : "                    case .value(let value): writer.writeValueEnvelope(value)")
        }
        if let thrown = plan.thrownError {
            writer.line("                    case .thrown(let error): writer.writeThrownEnvelope(\(literal(thrown.spelling(index))), error\(object))")
        }
        writer.line("                    case .urlError(let code): writer.writeURLErrorEnvelope(code\(object))")
        writer.line("                    }")
        writer.line("                }")
        writer.line("            }")
        writer.line("        }")
        writer.line("    }")
        writer.line("}")
    }

    private func callee(_ plan: GuestExportPlan) -> String {
        guard let owner = plan.owner else { return SwiftIdentifier.escaped(plan.name.baseName) }
        // `Type.init(…)` calls an initializer; `` Type.`init` `` would name a member called init.
        let member = plan.decl.is(InitializerDeclSyntax.self) ? "init" : SwiftIdentifier.escaped(plan.name.baseName)
        return index.types[owner].qualifiedName + "." + member
    }

    private func callArguments(_ plan: GuestExportPlan, values: [String]) -> String {
        zip(plan.parameters, values).map { parameter, value in
            parameter.label == "_" ? value : "\(parameter.label): \(value)"
        }.joined(separator: ", ")
    }

    /// A Swift string literal for a JSON key (identifiers need no escaping beyond backticks).
    private func literal(_ text: String) -> String {
        "\"" + text.replacingBackticks() + "\""
    }
}

private extension String {
    /// Identifiers written as `` `default` `` are keyed as `default` in JSON.
    func replacingBackticks() -> String { filter { $0 != "`" } }
}
