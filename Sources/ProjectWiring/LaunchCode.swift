import PatchManifest
import SwiftParser
import SwiftSyntax

/// The code that starts Patch at app launch (sdk-contract §11): `Patch.configure(...)` with the
/// config's non-default settings, labels in `PatchConfiguration.init`'s order, then `start()`.
/// `init` inserts it and `init --no-wire` prints it: both come from here.
public struct LaunchCode: Sendable, Equatable {
    public var configure: String
    public static let start = "Task { await Patch.shared.start() }"
    /// Whether the code needs Foundation (`URL`).
    public var usesURL: Bool

    public init(_ config: ProjectConfig) {
        var arguments = ["appKey: \(SwiftLiteral.string(config.appKey))"]
        if let appID = config.appID { arguments.append("appID: \(SwiftLiteral.string(appID))") }
        usesURL = config.apiBaseURL != ProjectConfig.defaultAPIBaseURL
        if usesURL { arguments.append("apiBaseURL: URL(string: \(SwiftLiteral.string(config.apiBaseURL)))!") }
        arguments.append("fingerprint: PatchBuildFingerprint.value")
        if config.channel != ProjectConfig.defaultChannel {
            arguments.append("channel: PatchChannel(\(SwiftLiteral.string(config.channel)))")
        }
        configure = "Patch.configure(PatchConfiguration(\(arguments.joined(separator: ", "))))"
    }

    public var statements: [String] { [configure, Self.start] }

    /// The imports the code needs, Foundation only where it names `URL`.
    public var imports: [String] { usesURL ? ["Foundation", "PatchSDK"] : ["PatchSDK"] }

    /// The code as the user adds it by hand.
    public var snippet: String {
        (imports.map { "import " + $0 } + ["", "// At the top of your App's init(), or of application(_:didFinishLaunchingWithOptions:):"] + statements)
            .joined(separator: "\n")
    }
}

/// Inserts `LaunchCode` into a file's app entry point, and takes it out again.
public enum LaunchCodeEditor {
    enum Marker {
        static let createdInit = "init"
        static func importAdded(_ module: String) -> String { "import:" + module }
    }

    /// Whether `bytes` declare the app's entry point (an `@main` App, or an `@main` /
    /// `@UIApplicationMain` app delegate): a cheap filter before parsing.
    public static func mayDeclareEntryPoint(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.contains("@main") || text.contains("@UIApplicationMain")
    }

    /// `bytes` with the launch code at the top of the entry point's launch method (created for an App
    /// without `init()`), updated when it is there with other settings, plus the imports it needs.
    /// Nil when the file declares no entry point. The markers say what was created.
    public static func wiring(_ bytes: [UInt8], path: String, code: LaunchCode) throws(WiringError) -> (bytes: [UInt8], markers: [String])? {
        let tree = bytes.withUnsafeBufferPointer { Parser.parse(source: $0) }
        guard let entry = entryPoint(in: tree) else { return nil }
        var edits: [SourceEdit] = []
        var markers: [String] = []
        let memberIndent = entry.members.first.flatMap { ListItem.lineIndent($0.leadingTrivia) } ?? (ListItem.lineIndent(entry.node.leadingTrivia) ?? "") + "    "

        if let function = launchFunction(of: entry), let body = function.body {
            let statements = Array(body.statements)
            if let existing = statements.first(where: isConfigureCall) {
                if existing.item.trimmedDescription != code.configure {
                    edits.append(SourceEdit(range: existing.item.positionAfterSkippingLeadingTrivia.utf8Offset..<existing.item.endPositionBeforeTrailingTrivia.utf8Offset,
                                            replacement: code.configure))
                }
            } else {
                let functionIndent = ListItem.lineIndent(function.leadingTrivia) ?? memberIndent
                let indent = statements.first.flatMap { ListItem.lineIndent($0.leadingTrivia) } ?? functionIndent + "    "
                edits.append(.insert(code.statements.map { "\n" + indent + $0 }.joined(), at: body.leftBrace.endPosition.utf8Offset))
            }
        } else if entry.isDelegate {
            throw .noLaunchMethod(path: path, line: SyntaxValue.line(entry.node.positionAfterSkippingLeadingTrivia.utf8Offset, in: tree, file: path), type: entry.name)
        } else {
            let initializer = "init() {" + code.statements.map { "\n" + memberIndent + "    " + $0 }.joined() + "\n" + memberIndent + "}"
            if let lastStored = entry.members.last(where: isStoredProperty) {
                edits.append(.insert("\n\n" + memberIndent + initializer, at: lastStored.endPosition.utf8Offset))
            } else {
                edits.append(.insert("\n" + memberIndent + initializer + "\n", at: entry.leftBrace.endPosition.utf8Offset))
            }
            markers.append(Marker.createdInit)
        }

        let imported = Set(tree.descendants(ImportDeclSyntax.self).map { $0.path.trimmedDescription })
        var missing = code.imports.filter { !imported.contains($0) }
        // These re-export Foundation.
        if !imported.isDisjoint(with: ["Foundation", "SwiftUI", "UIKit", "AppKit", "Cocoa"]) {
            missing.removeAll { $0 == "Foundation" }
        }
        if !missing.isEmpty {
            let lines = missing.map { "import " + $0 }
            if let lastImport = tree.statements.last(where: { $0.item.is(ImportDeclSyntax.self) }) {
                edits.append(.insert(lines.map { "\n" + $0 }.joined(), at: lastImport.endPosition.utf8Offset))
            } else {
                edits.append(.insert(lines.map { $0 + "\n" }.joined() + "\n", at: tree.positionAfterSkippingLeadingTrivia.utf8Offset))
            }
            markers += missing.map(Marker.importAdded)
        }
        return (SourceEdit.apply(edits, to: bytes), markers)
    }

    /// `bytes` without the launch code, the `init()` wiring created (when nothing else is in it) and
    /// the imports it added (per `markers`).
    public static func unwiring(_ bytes: [UInt8], markers: [String]) -> [UInt8] {
        let tree = bytes.withUnsafeBufferPointer { Parser.parse(source: $0) }
        guard let entry = entryPoint(in: tree) else { return bytes }
        var edits: [SourceEdit] = []
        if let function = launchFunction(of: entry), let body = function.body {
            let ours = body.statements.filter { isConfigureCall($0) || $0.item.trimmedDescription == LaunchCode.start }
            if markers.contains(Marker.createdInit), ours.count == body.statements.count,
               let member = entry.members.first(where: { Syntax($0.decl).id == Syntax(function).id }) {
                let isFirst = entry.members.first?.id == member.id
                // Created after the stored properties with a blank line before it, or first with a newline after it.
                let end = member.endPositionBeforeTrailingTrivia.utf8Offset + (isFirst && bytes.count > member.endPositionBeforeTrailingTrivia.utf8Offset
                    && bytes[member.endPositionBeforeTrailingTrivia.utf8Offset] == UInt8(ascii: "\n") ? 1 : 0)
                edits.append(SourceEdit(range: member.position.utf8Offset..<end, replacement: ""))
            } else {
                for statement in ours {
                    edits.append(SourceEdit(range: statement.position.utf8Offset..<statement.endPositionBeforeTrailingTrivia.utf8Offset, replacement: ""))
                }
            }
        }
        for statement in tree.statements {
            guard let declaration = statement.item.as(ImportDeclSyntax.self),
                  markers.contains(Marker.importAdded(declaration.path.trimmedDescription)) else { continue }
            if statement.leadingTrivia.contains(where: \.isNewline) {
                edits.append(SourceEdit(range: statement.position.utf8Offset..<statement.endPositionBeforeTrailingTrivia.utf8Offset, replacement: ""))
            } else {
                // The first line of the file: its newline goes with it, and the blank line after the imports.
                var end = statement.endPositionBeforeTrailingTrivia.utf8Offset
                if end < bytes.count, bytes[end] == UInt8(ascii: "\n") { end += 1 }
                edits.append(SourceEdit(range: statement.positionAfterSkippingLeadingTrivia.utf8Offset..<end, replacement: ""))
            }
        }
        return SourceEdit.apply(edits, to: bytes)
    }

    private struct EntryPoint {
        var node: Syntax
        var name: String
        var isDelegate: Bool
        var members: MemberBlockItemListSyntax
        var leftBrace: TokenSyntax
    }

    private static func entryPoint(in tree: SourceFileSyntax) -> EntryPoint? {
        for declaration in tree.descendants(DeclSyntax.self) {
            let attributes: AttributeListSyntax
            let name: TokenSyntax
            let inheritance: InheritanceClauseSyntax?
            let memberBlock: MemberBlockSyntax
            if let type = declaration.as(StructDeclSyntax.self) {
                (attributes, name, inheritance, memberBlock) = (type.attributes, type.name, type.inheritanceClause, type.memberBlock)
            } else if let type = declaration.as(ClassDeclSyntax.self) {
                (attributes, name, inheritance, memberBlock) = (type.attributes, type.name, type.inheritanceClause, type.memberBlock)
            } else {
                continue
            }
            let attributeNames = attributes.compactMap { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription }
            guard attributeNames.contains("main") || attributeNames.contains("UIApplicationMain") || attributeNames.contains("NSApplicationMain") else { continue }
            let inherited = inheritance?.inheritedTypes.map { $0.type.trimmedDescription } ?? []
            let isDelegate = inherited.contains { $0.hasSuffix("ApplicationDelegate") } || !attributeNames.contains("main")
            // An `@main` widget bundle, command-line tool or test host is not where an app launches.
            guard isDelegate || inherited.contains("App") || inherited.contains("SwiftUI.App") else { continue }
            return EntryPoint(node: Syntax(declaration), name: name.text, isDelegate: isDelegate,
                              members: memberBlock.members, leftBrace: memberBlock.leftBrace)
        }
        return nil
    }

    /// The App's `init()`, or the delegate's `application(_:didFinishLaunchingWithOptions:)` (`applicationDidFinishLaunching(_:)` on macOS).
    private static func launchFunction(of entry: EntryPoint) -> (any WithLaunchBody)? {
        for member in entry.members {
            if !entry.isDelegate, let initializer = member.decl.as(InitializerDeclSyntax.self),
               initializer.signature.parameterClause.parameters.isEmpty, initializer.optionalMark == nil {
                return initializer
            }
            if entry.isDelegate, let function = member.decl.as(FunctionDeclSyntax.self) {
                let labels = function.signature.parameterClause.parameters.map(\.firstName.text)
                // UIKit's, and AppKit's `applicationDidFinishLaunching(_:)`.
                if (function.name.text == "application" && labels == ["_", "didFinishLaunchingWithOptions"])
                    || (function.name.text == "applicationDidFinishLaunching" && labels == ["_"]) {
                    return function
                }
            }
        }
        return nil
    }

    private static func isConfigureCall(_ statement: CodeBlockItemSyntax) -> Bool {
        statement.item.trimmedDescription.hasPrefix("Patch.configure(")
    }

    private static func isStoredProperty(_ member: MemberBlockItemSyntax) -> Bool {
        guard let variable = member.decl.as(VariableDeclSyntax.self),
              !variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) })
        else { return false }
        return variable.bindings.allSatisfy { binding in
            guard let accessors = binding.accessorBlock?.accessors else { return true }
            // Observers (`didSet`/`willSet`) keep a property stored.
            if case let .accessors(list) = accessors {
                return list.allSatisfy { [.keyword(.didSet), .keyword(.willSet)].contains($0.accessorSpecifier.tokenKind) }
            }
            return false
        }
    }
}

/// The declarations launch code goes into: an initializer or a function, each with a body.
protocol WithLaunchBody: SyntaxProtocol {
    var body: CodeBlockSyntax? { get }
}

extension InitializerDeclSyntax: WithLaunchBody {}
extension FunctionDeclSyntax: WithLaunchBody {}
