import SwiftSyntax

/// The generated guest: one Swift file holding the project code the exports need (each piece
/// preceded by `#sourceLocation`, so compiler diagnostics point at the project's own file:line)
/// followed by the generated codecs and export glue.
struct GuestProgram {
    static let fileName = "PatchGuest.swift"

    var source: String
    var exports: [GuestExportPlan]
    var unpatchable: [GuestUnpatchable]
    /// Which units each export needs (the attribution of a compile error to exports).
    var closures: [Set<GuestUnit>]
    /// Lines of `fileName` generated for one export (its glue), by export position.
    var generatedLines: [(range: ClosedRange<Int>, export: Int)]
    /// The view bodies it lowers, with the units each needs and the lines of its glue.
    var views: [GuestViewPlan] = []
    var viewClosures: [Set<GuestUnit>] = []
    var viewGeneratedLines: [(range: ClosedRange<Int>, view: Int)] = []
    /// Whether the program imports the view DSL (templates/guest/ViewDSL*.swift, `GuestLibrary.viewDSL`).
    var usesViewDSL: Bool { !views.isEmpty }
    /// The library the program imports (`GuestSourceGenerator.generate` writes its import).
    var library: GuestLibrary { GuestLibrary(lowersViews: usesViewDSL) }
}

struct GuestSourceGenerator {
    let index: GuestSourceIndex
    /// Shared by every `generate` of a build, so a retry after a compile error reuses the closures
    /// the first attempt computed.
    let closureBuilder: GuestDependencyClosure
    /// The function exports': their code cannot use a framework type the guest lacks, so members of its
    /// extensions are never what their names mean (`GuestDependencyClosure.withoutFrameworkExtensions`);
    /// a view's code can, through the view DSL's stand-ins (`extension Color`, `extension View`).
    let functionClosureBuilder: GuestDependencyClosure

    init(index: GuestSourceIndex) {
        self.index = index
        closureBuilder = GuestDependencyClosure(index: index)
        functionClosureBuilder = GuestDependencyClosure(index: index, withoutFrameworkExtensions: true, laysOutStructCopies: true)
    }

    /// Plans the requested exports, drops the ones that cannot be patched (with the reason), and
    /// generates the guest file for the rest. `excluded` removes exports an earlier compile
    /// attempt attributed errors to; `dropped` removes units it found the guest cannot compile
    /// (`GuestModuleBuilder.uncompilableForeignExtensions`) from every closure.
    func generate(exports names: [GuestExportName], views viewRequests: [GuestViewRequest] = [], excluded: [GuestUnpatchable] = [],
                  dropped: Set<GuestUnit> = []) -> GuestProgram {
        let reader = GuestSignatureReader(index: index)
        var unpatchable = excluded
        var plans: [GuestExportPlan] = []
        var closures: [Set<GuestUnit>] = []
        let excludedIDs = Set(excluded.map(\.declarationID))
        // Members of the project's types: a Foundation member name they declare is the project's.
        let declaredMembers = names.isEmpty ? [] : Set(index.types.flatMap { $0.members.flatMap(\.names) })
        // A changed property with a setter ships both accessors: the id names the property.
        let names = names.flatMap { name in [name] + (reader.setter(of: name).map { [$0] } ?? []) }
        for name in names where !excludedIDs.contains(name.declarationID) {
            switch reader.plan(for: name) {
            case .failure(let problem):
                unpatchable.append(problem)
            case .success(let plan):
                var closure = functionClosureBuilder.closure(of: plan.unit)
                // A receiver's copy holds its references to other objects, which its decoder assigns.
                for member in referenceMembers(of: plan, reader: reader) { closure.formUnion(functionClosureBuilder.closure(of: member)) }
                var codecTypes: Set<Int> = []
                collectCodecTypes(plan, reader: reader, into: &codecTypes)
                collectCodableTypes(in: closure, reader: reader, into: &codecTypes)
                for type in codecTypes { closure.formUnion(functionClosureBuilder.closure(of: .typeShell(type))) }
                closure.subtract(dropped)
                if let problem = staticProblem(in: closure, for: plan, declaredMembers: declaredMembers, reader: reader) {
                    unpatchable.append(problem)
                } else {
                    plans.append(plan)
                    closures.append(closure)
                }
            }
        }
        let lowering = GuestViewLowering(index: index)
        var views: [GuestViewPlan] = []
        var viewClosures: [Set<GuestUnit>] = []
        for request in viewRequests where !excludedIDs.contains(request.declarationID) {
            switch lowering.plan(request) {
            case .failure(let problem):
                unpatchable.append(problem)
            case .success(let plan):
                var closure = lowering.closure(of: plan, closureBuilder: closureBuilder)
                for type in plan.codecTypes { closure.formUnion(closureBuilder.closure(of: .typeShell(type))) }
                closure.subtract(dropped)
                if let problem = lowering.nativeWrapperProblem(in: closure, for: plan) {
                    unpatchable.append(problem)
                    continue
                }
                views.append(plan)
                viewClosures.append(closure)
            }
        }
        // A view the module lowers keeps its wrappers (the DSL's `@State`…) and every stored property,
        // which the copy a helper of that type receives does not (`structCopy(of:)`): one declaration
        // of the type cannot be both.
        for position in plans.indices.reversed() {
            guard let owner = structCopyReceiver(of: plans[position], reader: reader),
                  let view = viewClosures.firstIndex(where: { $0.contains(.typeShell(owner)) }) else { continue }
            let plan = plans.remove(at: position)
            closures.remove(at: position)
            unpatchable.append(GuestUnpatchable(
                declarationID: plan.name.declarationID, reason: .unsupportedLanguageFeature,
                detail: "the module also lowers the view `\(views[view].request.path.joined(separator: "."))`, whose code uses \(index.types[owner].qualifiedName) with its property wrappers, while this method receives a copy of \(index.types[owner].qualifiedName) without them; it ships in a build without that view's change",
                location: plan.location))
        }
        // With the view DSL compiled in, SwiftUI's builder attribute means what it says.
        var writer = GuestSourceWriter()
        writer.keepsViewBuilder = !views.isEmpty
        writer.asyncThrownTypes = index.asyncThrownTypes
        writer.line("// Generated by patchcli build. Project code is copied with #sourceLocation markers; glue follows.")
        // The prelude, the Foundation layer and the view DSL are a library of their own (`GuestLibrary`)
        // whose internal declarations the glue uses.
        writer.line("@testable import \(GuestLibrary(lowersViews: !views.isEmpty).moduleName)")
        let included = (closures + viewClosures).reduce(into: Set<GuestUnit>()) { $0.formUnion($1) }
        var codecTypes: Set<Int> = []
        for plan in plans { collectCodecTypes(plan, reader: reader, into: &codecTypes) }
        for closure in closures { collectCodableTypes(in: closure, reader: reader, into: &codecTypes) }
        for plan in views { codecTypes.formUnion(plan.codecTypes) }
        // With views, the DSL's Foundation stand-ins are compiled in and enums also read the
        // inputs' shape of them.
        let receiverClasses = Set(plans.compactMap(objectReceiver(of:)))
        let codecs = GuestCodecGenerator(index: index, reader: views.isEmpty ? reader : lowering.reader, readsViewInputs: !views.isEmpty,
                                         receiverClasses: receiverClasses,
                                         referencedClasses: receiverClasses.reduce(into: Set<Int>()) { $0.formUnion(reader.referencedObjects(ofReceiver: $1)) }
                                            .union(plans.flatMap { reader.parameterObjects($0.parameters).values }),
                                         copiedStructs: Set(plans.compactMap { structCopyReceiver(of: $0, reader: reader) }))
        emitProjectCode(included, viewTypes: Set(views.map(\.type)), exported: Set(plans.map(\.unit)), codecs: codecs, into: &writer)
        for type in codecTypes.sorted(by: { index.types[$0].qualifiedName < index.types[$1].qualifiedName }) {
            codecs.emitCodec(for: type, into: &writer)
        }
        var generatedLines: [(ClosedRange<Int>, Int)] = []
        for (position, plan) in plans.enumerated() {
            let start = writer.lineCount + 1
            codecs.emitGlue(for: plan, into: &writer)
            generatedLines.append((start...writer.lineCount, position))
        }
        var viewGeneratedLines: [(ClosedRange<Int>, Int)] = []
        for (position, plan) in views.enumerated() {
            let start = writer.lineCount + 1
            lowering.emitGlue(for: plan, into: &writer)
            viewGeneratedLines.append((start...writer.lineCount, position))
        }
        if !views.isEmpty { GuestViewLowering.emitManifest(for: views, into: &writer) }
        return GuestProgram(source: writer.text, exports: plans, unpatchable: unpatchable, closures: closures, generatedLines: generatedLines,
                            views: views, viewClosures: viewClosures, viewGeneratedLines: viewGeneratedLines)
    }

    /// The receiver's class of an export of a class's instance method (nil for any other export).
    private func objectReceiver(of plan: GuestExportPlan) -> Int? {
        guard plan.isInstanceMethod, let owner = plan.owner, index.types[owner].kind == .classType else { return nil }
        return owner
    }

    /// The receiver's struct of an export of a method of a struct with property wrappers, which the
    /// module receives as a copy (`GuestSignatureReader.structCopy`); nil for any other export.
    private func structCopyReceiver(of plan: GuestExportPlan, reader: GuestSignatureReader) -> Int? {
        guard plan.isInstanceMethod, let owner = plan.owner, reader.structCopy(of: owner) != nil else { return nil }
        return owner
    }

    /// The stored properties of an export's class receiver that reference other objects (`species:
    /// BirdSpecies?`), which its copy holds (`GuestSignatureReader.receiverMirror`).
    private func referenceMembers(of plan: GuestExportPlan, reader: GuestSignatureReader) -> [GuestUnit] {
        guard let owner = objectReceiver(of: plan) else { return [] }
        let names = Set(reader.receiverMirror(of: owner).fields.filter { field in field.type.projectTypes().contains { index.types[$0].kind == .classType } }.map(\.name))
        return index.types[owner].members.indices.filter { index.types[owner].members[$0].kind == .storedProperty && !names.isDisjoint(with: index.types[owner].members[$0].names) }
            .map { .member(type: owner, member: $0) }
    }

    private func collectCodecTypes(_ plan: GuestExportPlan, reader: GuestSignatureReader, into types: inout Set<Int>) {
        var pending = plan.parameters.flatMap { $0.type.projectTypes() } + (plan.result?.projectTypes() ?? []) + (plan.thrownError?.projectTypes() ?? [])
        if plan.isInstanceMethod, let owner = plan.owner { pending.append(owner) }
        let objects = (objectReceiver(of: plan).map { reader.referencedObjects(ofReceiver: $0) } ?? []).union(reader.parameterObjects(plan.parameters).values)
        while let type = pending.popLast() {
            guard types.insert(type).inserted else { continue }
            if case .success(let shape) = reader.codableShape(of: type, asReceiver: plan.isInstanceMethod && type == plan.owner, asReferenced: objects.contains(type)) {
                pending.append(contentsOf: shape.referencedTypes)
            }
        }
    }

    /// The project's Codable types the code uses (a `JSONDecoder().decode(Item.self, from:)` inside a
    /// function), and the types they hold: the guest's JSONEncoder and JSONDecoder work over the
    /// generated codecs. One whose shape the glue cannot encode gets none, and a call that needs it
    /// fails to compile with the type named.
    private func collectCodableTypes(in closure: Set<GuestUnit>, reader: GuestSignatureReader, into types: inout Set<Int>) {
        var pending: [Int] = []
        for case .typeShell(let type) in closure
        where !index.types[type].inheritedNames.filter({ ["Codable", "Decodable", "Encodable"].contains($0) }).isEmpty {
            pending.append(type)
        }
        while let type = pending.popLast() {
            guard case .success(let shape) = reader.codableShape(of: type), types.insert(type).inserted else { continue }
            pending.append(contentsOf: shape.referencedTypes)
        }
    }

    /// Constructs in the needed code that the guest tier cannot run, found without compiling.
    private func staticProblem(in closure: Set<GuestUnit>, for plan: GuestExportPlan, declaredMembers: Set<String>, reader: GuestSignatureReader) -> GuestUnpatchable? {
        let objects = ObjectCopies(receiver: objectReceiver(of: plan), parameters: reader.parameterObjects(plan.parameters), exported: plan.unit, reader: reader)
        let structCopy = structCopyReceiver(of: plan, reader: reader).flatMap { owner in reader.structCopy(of: owner).map { (owner, $0) } }
        // A struct copy's members first: a left-out `@ObservedObject var model: Model` reaches class
        // Model too, and the property is the reason to name.
        let isCopyMember = { (unit: GuestUnit) -> Bool in
            if let (owner, _) = structCopy, case .member(owner, _) = unit { return true }
            return false
        }
        for unit in closure.sorted().filter(isCopyMember) + closure.sorted().filter({ !isCopyMember($0) }) {
            let (decl, file, owner) = declaration(of: unit)
            let sourceFile = index.files[file]
            func problem(_ reason: GuestUnpatchable.Reason, _ detail: String, _ node: some SyntaxProtocol) -> GuestUnpatchable {
                let via = unit == plan.unit ? "" : " (in \(describe(unit)), which it uses)"
                return GuestUnpatchable(
                    declarationID: plan.name.declarationID, reason: reason, detail: detail + via,
                    location: GuestSourceLocation(file: sourceFile.relativePath, line: sourceFile.line(of: node)))
            }
            // The receiver's class travels as a copy (`receiverMirror(of:)`), and so do the objects its
            // stored properties reference (`referencedObjectMirror(of:)`); any other object does not.
            if case .typeShell(let type) = unit, index.types[type].kind == .actorType
                || (index.types[type].kind == .classType && type != plan.owner && !objects.classes.contains(type)) {
                return problem(.unsupportedLanguageFeature, objects.whyNoCopy(of: type), decl)
            }
            if case .member(let type, let member) = unit, index.types[type].kind == .classType, type == plan.owner || objects.classes.contains(type),
               let property = (type == plan.owner ? reader.receiverMirror(of: type) : reader.referencedObjectMirror(of: type)).leftOut
                .first(where: { index.types[type].members[member].names.contains($0.name) }) {
                let copy = type == plan.owner ? "the copy the module receives"
                    : objects.references.values.contains(type) ? "the copy of a referenced object the module receives" : "the copy of a parameter's object the module receives"
                return problem(.unsupportedLanguageFeature, "touches `\(property.name)` (\(sourceFile.relativePath):\(property.line)), a stored property of class \(index.types[type].qualifiedName) that \(copy) leaves out (\(property.reason))", decl)
            }
            if case .typeShell = unit {} else if let (write, detail) = objects.lostWrite(in: decl, of: unit) {
                return problem(.unsupportedLanguageFeature, detail, write.node)
            }
            if let (owner, copy) = structCopy, case .member(owner, let member) = unit,
               let (node, detail) = Self.copyProblem(in: index.types[owner].members[member], of: index.types[owner].qualifiedName,
                                                     leftOut: copy.leftOut, wrapped: copy.wrapped, file: sourceFile) {
                return problem(.unsupportedLanguageFeature, detail, node)
            }
            let references: GuestReferences
            if case .typeShell = unit { references = GuestReferences() } else { references = GuestReferenceCollector.collect(decl) }
            // The awaits an async function's transform replaces (`URLSession.shared.data(from:`,
            // `Task.sleep`) name no framework API the guest lacks.
            var replacedByTransform: [Range<Int>] = []
            if let site = references.asyncSites.first {
                // An async function the transform takes runs as its continuation form (docs/async.md).
                guard let function = decl.as(FunctionDeclSyntax.self), GuestAsyncTransform.isAsyncFunction(function) else {
                    return problem(.asyncCode, "async code cannot run in the embedded wasm32 guest (it has no _Concurrency)", site)
                }
                switch GuestAsyncTransform.transform(function, thrownTypes: index.asyncThrownTypes) {
                case .failure(let refusal):
                    return problem(.asyncCode, "\(refusal.construct) stays native: the guest runs only the async forms docs/async.md lists", refusal.node)
                case .success(let transform):
                    replacedByTransform = transform.edits.map(\.range).filter { !$0.isEmpty }
                }
            }
            if let site = references.existentialSites.first {
                return problem(.unsupportedLanguageFeature, "existential \(site.trimmedText) is not available in Embedded Swift", site)
            }
            let usesFramework = !Set(sourceFile.imports).isDisjoint(with: GuestFrameworkNames.frameworkModules)
            guard usesFramework else { continue }
            let scope = owner.map { index.types[$0].path } ?? []
            // Report the first framework use in source order.
            let frameworkTypes = references.bareNames.union(references.typeNames).filter { name in
                GuestFrameworkNames.types[name] != nil && index.resolveType(named: name, from: scope).isEmpty
                    && index.globals(named: name).isEmpty
            }
            let frameworkMembers = references.memberNames.filter { GuestFrameworkNames.members.contains($0) && !declaredMembers.contains($0) }
            // A struct copy's wrappers are blanked (`emitType`): `@Environment(\.date)` names no framework type there.
            let blanksWrappers = isCopyMember(unit) && decl.is(VariableDeclSyntax.self)
            for token in decl.tokens(viewMode: .sourceAccurate) {
                if replacedByTransform.contains(where: { $0.contains(token.positionAfterSkippingLeadingTrivia.utf8Offset) }) { continue }
                if blanksWrappers, token.ancestorOrSelf(mapping: { $0.as(AttributeSyntax.self) }) != nil { continue }
                // `@Published` is blanked in the copy (`droppedAttributes`): a pure-storage wrapper.
                let isDroppedAttribute = token.parent?.parent?.as(AttributeSyntax.self).map { GuestSourceWriter.droppedAttributes.contains($0.attributeName.trimmedText) } == true
                if frameworkTypes.contains(token.text), !isDroppedAttribute, let module = GuestFrameworkNames.types[token.text] {
                    return problem(.osFrameworkAPI, "uses \(token.text) from \(module), which the guest does not have", token)
                }
                if frameworkMembers.contains(token.text), token.previousToken(viewMode: .sourceAccurate)?.tokenKind == .period {
                    return problem(.osFrameworkAPI, "uses .\(token.text), which Foundation adds to standard types; the guest does not have Foundation", token)
                }
            }
        }
        return nil
    }

    /// Why a member of a struct whose copy the module receives cannot run on that copy: it touches a
    /// stored property the copy leaves out, assigns to a wrapped one (`@State`, `@Binding`: natively a
    /// nonmutating write to the app's storage; the copy's change would not come back), or reads a
    /// wrapper's projected value (`$isOn`), which the copy's plain `var` does not have.
    static func copyProblem(in member: GuestMember, of typeName: String, leftOut: [LeftOutProperty], wrapped: [String: String],
                            file: GuestSourceFile) -> (Syntax, String)? {
        if let property = leftOut.first(where: { member.names.contains($0.name) }) {
            return (Syntax(member.decl), "touches `\(property.name)` (\(file.relativePath):\(property.line)), a stored property of struct \(typeName) that the copy the module receives leaves out (\(property.reason))")
        }
        guard member.kind != .storedProperty else { return nil }
        let locals = Set(GuestObjectWriteCollector.bindings(in: member.decl).map(\.name))
        for write in GuestObjectWriteCollector.collect(member.decl) {
            let isSelf = write.chain.first == "self"
            guard let name = isSelf ? write.chain.dropFirst().first : write.chain.first, isSelf || !locals.contains(name),
                  let wrapper = wrapped[name] else { continue }
            return (write.node, "writes `\(write.chain.joined(separator: "."))`, the `\(wrapper)` stored property `\(name)` of \(typeName): the module runs on a copy of the view's values and does not write them back (only the result comes back), so the write would be lost")
        }
        for token in member.decl.tokens(viewMode: .sourceAccurate) where token.text.hasPrefix("$") || token.text.hasPrefix("_") {
            guard let wrapper = wrapped[String(token.text.dropFirst())] else { continue }
            let what = token.text.hasPrefix("$") ? "the projected value" : "the wrapper's own storage"
            return (Syntax(token), "uses `\(token.text)`, \(what) of `\(wrapper)` stored property `\(token.text.dropFirst())` of \(typeName): the copy the module receives holds the wrapped value only")
        }
        return nil
    }

    func declaration(of unit: GuestUnit) -> (decl: DeclSyntax, file: Int, owner: Int?) {
        switch unit {
        case .global(let global): return (index.globals[global].decl, index.globals[global].file, nil)
        case .typeShell(let type):
            let entry = index.types[type]
            return (entry.decl, entry.file, entry.path.count > 1 && entry.foreignExtension == nil ? index.lookupType(path: Array(entry.path.dropLast())) : nil)
        case .member(let type, let member): return (index.types[type].members[member].decl, index.types[type].members[member].file, type)
        }
    }

    func describe(_ unit: GuestUnit) -> String {
        switch unit {
        case .global(let global): return index.globals[global].names.joined(separator: ", ")
        case .typeShell(let type): return index.types[type].qualifiedName
        case .member(let type, let member): return index.types[type].qualifiedName + "." + (index.types[type].members[member].names.first ?? "")
        }
    }

    /// The file:line span of a unit in the project sources.
    func span(of unit: GuestUnit) -> (file: String, lines: ClosedRange<Int>) {
        let (decl, file, _) = declaration(of: unit)
        let sourceFile = index.files[file]
        // A member of a foreign extension is emitted inside a copy of the extension's header.
        var start = sourceFile.line(of: decl)
        if case .global(let global) = unit, let foreignExtension = index.globals[global].foreignExtension {
            start = sourceFile.line(of: foreignExtension)
        }
        if case .typeShell(let type) = unit, let foreignExtension = index.types[type].foreignExtension {
            start = sourceFile.line(of: foreignExtension)
        }
        let end = decl.endLocation(converter: sourceFile.converter).line
        return (sourceFile.relativePath, start...max(start, end))
    }

    // MARK: - Project code

    /// `exported`: the units the glue calls (a `private` member among them is widened to `fileprivate`).
    private func emitProjectCode(_ included: Set<GuestUnit>, viewTypes: Set<Int>, exported: Set<GuestUnit>, codecs: GuestCodecGenerator, into writer: inout GuestSourceWriter) {
        let privateNames = GuestPrivateNames(index: index, included: included)
        for unit in included.sorted() {
            guard case .global(let global) = unit else { continue }
            let entry = index.globals[global]
            let file = index.files[entry.file]
            let renames = privateNames.edits(in: entry.decl, file: entry.file) + GuestSourceGenerator.publicAccessBlanked(in: entry.decl)
            if let foreignExtension = entry.foreignExtension {
                writer.header(Self.foreignExtensionHeader(foreignExtension), at: foreignExtension, in: file)
                writer.copy(entry.decl, from: file, renames: renames)
                writer.line("}")
            } else {
                writer.copy(entry.decl, from: file, renames: renames)
            }
        }
        let includedTypes = Set(included.compactMap { unit -> Int? in
            if case .typeShell(let type) = unit { return type }
            return nil
        })
        for type in includedTypes.sorted() where index.types[type].path.count == 1 {
            emitType(type, included: included, includedTypes: includedTypes, viewTypes: viewTypes, exported: exported, codecs: codecs, privateNames: privateNames, into: &writer)
        }
        // A type nested in an extension of a framework type (`extension Image { enum AppImageStyle … }`)
        // is declared where the app declares it: in a copy of that extension, around the guest's
        // stand-in of the extended type.
        for type in includedTypes.sorted() {
            guard let foreignExtension = index.types[type].foreignExtension else { continue }
            writer.header(Self.foreignExtensionHeader(foreignExtension), at: foreignExtension, in: index.files[index.types[type].file])
            emitType(type, included: included, includedTypes: includedTypes, viewTypes: viewTypes, exported: exported, codecs: codecs, privateNames: privateNames, into: &writer)
            writer.line("}")
        }
    }

    /// `extension Image where …`, without the extension's attributes, modifiers and conformances.
    private static func foreignExtensionHeader(_ decl: ExtensionDeclSyntax) -> String {
        "extension " + decl.extendedType.trimmedText + (decl.genericWhereClause.map { " " + $0.trimmedText } ?? "")
    }

    private func emitType(_ type: Int, included: Set<GuestUnit>, includedTypes: Set<Int>, viewTypes: Set<Int>, exported: Set<GuestUnit>, codecs: GuestCodecGenerator,
                          privateNames: GuestPrivateNames,
                          into writer: inout GuestSourceWriter) {
        let entry = index.types[type]
        // The members of this type and the types around it, which a member's bare names mean first.
        var memberNames: Set<String> = []
        for depth in 1...entry.path.count {
            if let enclosing = index.type(atPath: Array(entry.path.prefix(depth))) { memberNames.formUnion(index.types[enclosing].members.flatMap(\.names)) }
        }
        func copy(_ memberIndex: Int) {
            let member = entry.members[memberIndex]
            var edits = privateNames.edits(in: member.decl, file: member.file, memberNames: memberNames)
            // The glue calls an exported member from outside its type, where a `private` one is out of
            // reach: widened as `prepare` widens it in the app (`PrivateMemberWidening`).
            if exported.contains(.member(type: type, member: memberIndex)),
               let keyword = member.decl.asProtocol(WithModifiersSyntax.self).flatMap({ PrivateMemberWidening.privateKeyword($0.modifiers) }) {
                edits.append((keyword..<keyword, PrivateMemberWidening.insertion))
            }
            // The copy of a struct with wrappers a helper receives holds their wrapped values as plain
            // stored `var`s: the attributes are blanked (spaces, so lines and columns stay).
            if codecs.copiedStructs.contains(type), member.kind == .storedProperty, let variable = member.decl.as(VariableDeclSyntax.self) {
                for attribute in variable.attributes {
                    let range = attribute.positionAfterSkippingLeadingTrivia.utf8Offset..<attribute.endPositionBeforeTrailingTrivia.utf8Offset
                    edits.append((range, String(attribute.trimmedDescription.map { $0 == "\n" ? "\n" : " " })))
                }
            }
            // A public member of a constrained extension naming a DSL type (`extension DonutBoxView
            // where Content == EmptyView { public init(isOpen:) }`, which a generic view's copy takes
            // along) would be public with internal requirements: blanked as a global's is.
            if let position = member.extensionIndex, entry.extensions[position].decl.genericWhereClause != nil {
                edits += GuestSourceGenerator.publicAccessBlanked(in: member.decl)
            }
            writer.copy(member.decl, from: index.files[member.file], renames: edits)
        }
        let file = index.files[entry.file]
        // A lowered view or modifier, and a view, modifier or toolbar content of the project its body
        // uses, keeps `View`, `ViewModifier` or `ToolbarContent` in its own declaration: there the
        // body infers the protocol's builder.
        let isModifier = !viewTypes.isEmpty && GuestViewLowering.isModifier(entry, lowered: viewTypes.contains(type))
        let isView = !isModifier && (viewTypes.contains(type) || (!viewTypes.isEmpty && entry.inheritedNames.contains("View")))
        let isToolbarContent = !viewTypes.isEmpty && entry.inheritedNames.contains("ToolbarContent")
        let kept = (isView ? ["View"] : []) + (isModifier ? ["ViewModifier"] : []) + (isToolbarContent ? ["ToolbarContent"] : [])
            + closureBuilder.keptInheritance(entry.inheritedNames)
        writer.header(GuestSourceGenerator.header(of: entry.decl, keeping: kept), at: entry.decl, in: file)
        for (memberIndex, member) in entry.members.enumerated() where member.extensionIndex == nil && member.kind != .nestedType {
            if included.contains(.member(type: type, member: memberIndex)) { copy(memberIndex) }
        }
        // A designated initializer cannot be declared in an extension of a class.
        codecs.emitClassDecoder(for: type, into: &writer)
        for nested in includedTypes.sorted() where index.types[nested].path.count == entry.path.count + 1 && Array(index.types[nested].path.dropLast()) == entry.path {
            emitType(nested, included: included, includedTypes: includedTypes, viewTypes: viewTypes, exported: exported, codecs: codecs, privateNames: privateNames, into: &writer)
        }
        writer.line("}")
        for (extensionIndex, extensionEntry) in entry.extensions.enumerated() {
            let members = entry.members.indices.filter {
                entry.members[$0].extensionIndex == extensionIndex && entry.members[$0].kind != .nestedType && included.contains(.member(type: type, member: $0))
            }
            let kept = closureBuilder.keptInheritance(extensionEntry.decl.inheritanceClause?.inheritedTypes.map { $0.type.trimmedText } ?? [])
            guard !members.isEmpty || !kept.isEmpty else { continue }
            var header = "extension " + entry.qualifiedName
            if !kept.isEmpty { header += ": " + kept.joined(separator: ", ") }
            if let whereClause = extensionEntry.decl.genericWhereClause { header += " " + whereClause.trimmedText }
            writer.header(header, at: extensionEntry.decl, in: index.files[extensionEntry.file])
            for memberIndex in members { copy(memberIndex) }
            writer.line("}")
        }
    }

    /// A global's `public`, `open` or `package` (with its `(set)`), blanked: the guest's copies of the
    /// project's types are internal (`header(of:keeping:)`), so a package's `public typealias Tags =
    /// [Tag]` or `public func` naming one would not compile; in one module it opens nothing anyway.
    static func publicAccessBlanked(in decl: DeclSyntax) -> [(range: Range<Int>, replacement: String)] {
        (decl.asProtocol(WithModifiersSyntax.self)?.modifiers ?? []).compactMap { modifier in
            guard ["public", "open", "package"].contains(modifier.name.text) else { return nil }
            let range = modifier.positionAfterSkippingLeadingTrivia.utf8Offset..<modifier.endPositionBeforeTrailingTrivia.utf8Offset
            return (range, String(repeating: " ", count: range.count))
        }
    }

    /// A type's header (`struct Name<T>: Kept where …`) without its attributes, body or the
    /// conformances the guest drops (Codable and framework protocols).
    static func header(of decl: DeclSyntax, keeping kept: [String]) -> String {
        let keyword: String, name: String, generics: String, whereClause: String
        if let s = decl.as(StructDeclSyntax.self) {
            (keyword, name, generics, whereClause) = ("struct", s.name.text, s.genericParameterClause?.trimmedText ?? "", s.genericWhereClause?.trimmedText ?? "")
        } else if let e = decl.as(EnumDeclSyntax.self) {
            let indirect = e.modifiers.contains { $0.name.text == "indirect" } ? "indirect " : ""
            (keyword, name, generics, whereClause) = (indirect + "enum", e.name.text, e.genericParameterClause?.trimmedText ?? "", e.genericWhereClause?.trimmedText ?? "")
        } else if let p = decl.as(ProtocolDeclSyntax.self) {
            (keyword, name, generics, whereClause) = ("protocol", p.name.text, "", p.genericWhereClause?.trimmedText ?? "")
        } else if let c = decl.as(ClassDeclSyntax.self) {
            (keyword, name, generics, whereClause) = ("final class", c.name.text, c.genericParameterClause?.trimmedText ?? "", c.genericWhereClause?.trimmedText ?? "")
        } else {
            (keyword, name, generics, whereClause) = ("struct", "_Unsupported", "", "")
        }
        var text = keyword + " " + name + generics
        if !kept.isEmpty { text += ": " + kept.joined(separator: ", ") }
        if !whereClause.isEmpty { text += " " + whereClause }
        return text
    }
}

/// The units of some closures with their file:line spans, by file: which unit a compiler diagnostic's
/// file:line is in. Each span is computed once, not once per diagnostic and closure holding the unit
/// (a large app's failed compile reports hundreds of errors against hundreds of closures).
struct GuestUnitLocator {
    private var spans: [String: [(unit: GuestUnit, lines: ClosedRange<Int>)]] = [:]

    init(_ closures: [Set<GuestUnit>], generator: GuestSourceGenerator) {
        for unit in closures.reduce(into: Set<GuestUnit>(), { $0.formUnion($1) }).sorted() {
            let span = generator.span(of: unit)
            spans[span.file, default: []].append((unit, span.lines))
        }
    }

    /// The unit with the fewest lines among those spanning `line` of `file` (the innermost: a member
    /// rather than its type), the first in unit order on a tie.
    func smallest(containing line: Int, in file: String) -> GuestUnit? {
        var best: (unit: GuestUnit, size: Int)?
        for (unit, lines) in spans[file] ?? [] where lines.contains(line) && lines.count < best?.size ?? Int.max {
            best = (unit, lines.count)
        }
        return best?.unit
    }
}

/// Accumulates the guest file, counting lines so generated regions can be located later.
struct GuestSourceWriter {
    private(set) var text = ""
    private(set) var lineCount = 0
    /// Keeps `@ViewBuilder` (when the view DSL is compiled in) instead of blanking it.
    var keepsViewBuilder = false
    /// `GuestSourceIndex.asyncThrownTypes`, for copying async functions.
    var asyncThrownTypes: GuestAsyncTransform.ThrownTypes = [:]

    /// Attributes the guest cannot honour (actor isolation, Objective-C, SwiftUI builders); they
    /// are blanked with spaces so the copied code keeps its line structure.
    static let droppedAttributes: Set<String> = ["MainActor", "preconcurrency", "objc", "nonobjc", "Observable", "ViewBuilder", "IBAction", "IBOutlet",
                                                 "Published", "ObservationIgnored", "Attribute", "Relationship", "Transient"]

    mutating func line(_ content: String) {
        text += content + "\n"
        lineCount += 1 + content.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }

    private mutating func located(_ line: Int, _ file: GuestSourceFile, _ body: (inout GuestSourceWriter) -> Void) {
        self.line("#sourceLocation(file: \"\(file.relativePath)\", line: \(line))")
        body(&self)
        self.line("#sourceLocation()")
    }

    mutating func header(_ header: String, at decl: some SyntaxProtocol, in file: GuestSourceFile) {
        located(file.line(of: decl), file) { $0.line(header + " {") }
    }

    /// Copies a declaration as written (without its leading comments), blanking dropped attributes
    /// and applying `renames` (utf8 ranges in the file: `GuestPrivateNames.edits`).
    mutating func copy(_ decl: DeclSyntax, from file: GuestSourceFile, renames: [(range: Range<Int>, replacement: String)] = []) {
        let start = decl.positionAfterSkippingLeadingTrivia.utf8Offset
        var bytes = Array(decl.trimmedBytes)
        for attribute in decl.tokens(viewMode: .sourceAccurate).compactMap({ $0.parent?.as(AttributeSyntax.self) }) {
            let name = attribute.attributeName.trimmedText
            guard GuestSourceWriter.droppedAttributes.contains(name), !(keepsViewBuilder && name == "ViewBuilder"), attribute.atSign.tokenKind == .atSign else { continue }
            let from = attribute.positionAfterSkippingLeadingTrivia.utf8Offset - start
            let to = attribute.endPositionBeforeTrailingTrivia.utf8Offset - start
            guard from >= 0, to <= bytes.count, from < to else { continue }
            for offset in from..<to where bytes[offset] != UInt8(ascii: "\n") { bytes[offset] = UInt8(ascii: " ") }
        }
        var edits = (keepsViewBuilder ? GuestSourceWriter.keyPathIdentities(in: decl) : []) + GuestSourceWriter.keyPathFunctions(in: decl) + renames
        if let typedThrows = GuestThrownError.typedThrowsEdit(in: decl) { edits.append(typedThrows) }
        // An async function is copied in its continuation form; one the transform refuses never
        // reaches here (`GuestSourceGenerator.staticProblem`).
        if let function = decl.as(FunctionDeclSyntax.self), GuestAsyncTransform.isAsyncFunction(function),
           case .success(let transform) = GuestAsyncTransform.transform(function, thrownTypes: asyncThrownTypes) {
            edits += transform.edits
        }
        // Key paths, renamed identifiers and the `throws` clause never overlap (a key path's names are
        // members). Last first, so the offsets of the earlier ones stay valid; at one offset the
        // replacement first, so an insertion there (the async transform's) goes before its text.
        for (range, replacement) in edits.sorted(by: { $0.range.lowerBound != $1.range.lowerBound ? $0.range.lowerBound > $1.range.lowerBound : $0.range.count > $1.range.count }) {
            bytes.replaceSubrange((range.lowerBound - start)..<(range.upperBound - start), with: Array(replacement.utf8))
        }
        let body = String(decoding: bytes, as: UTF8.self)
        located(file.line(of: decl), file) { $0.line(body) }
    }

    /// `id: \.id`, `id: \.self`, `id: \Item.name` as closures (`{ $0.id }`, `{ $0 }`): Embedded Swift
    /// has no key paths, and the DSL's `ForEach` (or any call with an `id:` argument) takes the identity
    /// as a closure. Only the key path's own bytes change, so lines stay where they were.
    static func keyPathIdentities(in decl: DeclSyntax) -> [(range: Range<Int>, replacement: String)] {
        final class Finder: SyntaxVisitor {
            var found: [(Range<Int>, String)] = []
            override func visit(_ node: KeyPathExprSyntax) -> SyntaxVisitorContinueKind {
                guard let argument = node.parent?.as(LabeledExprSyntax.self), argument.label?.text == "id" else { return .visitChildren }
                found.append(GuestSourceWriter.closure(replacing: node))
                return .skipChildren
            }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(decl)
        return finder.found
    }

    /// The standard library's methods taking a one-argument function, by name and argument label
    /// ("" unlabeled), where Swift accepts a key path for it (SE-0249): `items.map(\.name)`.
    static let keyPathFunctionArguments: Set<String> = [
        "map:", "compactMap:", "flatMap:", "filter:", "mapValues:", "compactMapValues:", "first:where", "last:where",
        "firstIndex:where", "lastIndex:where", "contains:where", "allSatisfy:", "removeAll:where", "drop:while", "prefix:while",
        "count:where",
    ]

    /// `items.map(\.name)`, `filter(\.isPremium)`, `first(where: \.isDefault)` as `{ $0.name }`…:
    /// Embedded Swift has no key paths, and these methods take the function the key path stands
    /// for. Other callees keep theirs (a key path they take as a `KeyPath`, `SortDescriptor(\.date)`,
    /// `.environment(\.locale, …)`, stays one and the guest compiler names it).
    static func keyPathFunctions(in decl: DeclSyntax) -> [(range: Range<Int>, replacement: String)] {
        final class Finder: SyntaxVisitor {
            var found: [(Range<Int>, String)] = []
            override func visit(_ node: KeyPathExprSyntax) -> SyntaxVisitorContinueKind {
                guard let argument = node.parent?.as(LabeledExprSyntax.self),
                      let call = argument.parent?.as(LabeledExprListSyntax.self)?.parent?.as(FunctionCallExprSyntax.self),
                      let callee = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text,
                      GuestSourceWriter.keyPathFunctionArguments.contains(callee + ":" + (argument.label?.text ?? ""))
                else { return .visitChildren }
                found.append(GuestSourceWriter.closure(replacing: node))
                return .skipChildren
            }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(decl)
        return finder.found
    }

    /// The key path's bytes and the closure reading the same path (`\Item.owner?.name` → `{ $0.owner?.name }`,
    /// `\.self` → `{ $0 }`); only those bytes change, so lines stay where they were.
    static func closure(replacing keyPath: KeyPathExprSyntax) -> (Range<Int>, String) {
        let path = keyPath.components.map { component -> String in
            if let property = component.component.as(KeyPathPropertyComponentSyntax.self), property.declName.baseName.tokenKind == .keyword(.self) {
                return ""
            }
            return component.trimmedDescription
        }.joined()
        let range = keyPath.positionAfterSkippingLeadingTrivia.utf8Offset..<keyPath.endPositionBeforeTrailingTrivia.utf8Offset
        return (range, "{ $0" + path + " }")
    }
}
