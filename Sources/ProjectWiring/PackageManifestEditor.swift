import PatchManifest
import SwiftParser
import SwiftSyntax

/// Adds the PatchSDK package and its products to a `Package.swift` as byte edits of its syntax (the
/// rest of the file stays as written), and takes them out again.
public enum PackageManifestEditor {
    public static let sdkProduct = "PatchSDK"
    public static let swiftUIProduct = "PatchSwiftUI"

    /// The SDK products one target needs.
    public struct TargetProducts: Sendable, Equatable {
        public var target: String
        public var products: [String]

        public init(target: String, products: [String]) {
            self.target = target
            self.products = products
        }
    }

    /// What wiring changed, so that only that is taken out again (a dependency the user already had stays).
    public enum Marker {
        static let package = "package"
        static let packageDependencies = "package-dependencies"
        static func targetDependencies(_ target: String) -> String { "target-dependencies:" + target }
        static func product(_ product: String, of target: String) -> String { "product:" + target + ":" + product }
    }

    /// `bytes` with the SDK package in `dependencies:` and each target's products in its
    /// `dependencies:` (arguments created where missing); an existing dependency on the SDK's
    /// repository or product is reused. Returns the markers of what was added (empty: unchanged).
    public static func wiring(_ bytes: [UInt8], path: String, sdk: ProjectConfig.SDKPackage,
                              targets: [TargetProducts]) throws(WiringError) -> (bytes: [UInt8], markers: [String]) {
        let tree = bytes.withUnsafeBufferPointer { Parser.parse(source: $0) }
        let calls = tree.descendants(FunctionCallExprSyntax.self)
        var edits: [SourceEdit] = []
        var markers: [String] = []

        let existing = calls.first { SyntaxValue.calleeName($0) == "package" && isSDKPackage($0, sdk: sdk) }
        let identity = packageIdentity(existing.flatMap { SyntaxValue.string(SyntaxValue.argument("url", of: $0)?.expression) } ?? sdk.url)
        if existing == nil {
            guard let package = calls.first(where: { $0.calledExpression.is(DeclReferenceExprSyntax.self) && SyntaxValue.calleeName($0) == "Package" }) else {
                throw .unsupportedManifest(path: path, line: 1, reason: "no `let package = Package(...)`")
            }
            let dependency = packageDependency(sdk)
            if let argument = SyntaxValue.argument("dependencies", of: package) {
                edits += try appending([dependency], to: argument, path: path, tree: tree)
            } else {
                edits += try creatingDependencies(in: package, element: dependency, path: path, tree: tree)
                markers.append(Marker.packageDependencies)
            }
            markers.append(Marker.package)
        }

        for target in targets {
            guard let call = targetDeclaration(target.target, in: calls) else { throw .targetNotDeclared(target: target.target, path: path) }
            // System libraries, binaries, plugins, macros and tests do not link into the app.
            guard linkedTargetKinds.contains(SyntaxValue.calleeName(call) ?? "") else { continue }
            let argument = SyntaxValue.argument("dependencies", of: call)
            let present = argument.map { dependencyNames($0) } ?? []
            let missing = target.products.filter { !present.contains($0) }
            guard !missing.isEmpty else { continue }
            let elements = missing.map { productDependency($0, packageIdentity: identity) }
            if let argument {
                edits += try appending(elements, to: argument, path: path, tree: tree)
            } else {
                guard let name = SyntaxValue.argument("name", of: call) else { throw .targetNotDeclared(target: target.target, path: path) }
                edits += ListItem(name).insertingAfter("dependencies: [\(elements.joined(separator: ", "))]")
                markers.append(Marker.targetDependencies(target.target))
            }
            markers += missing.map { Marker.product($0, of: target.target) }
        }
        return (SourceEdit.apply(edits, to: bytes), markers)
    }

    /// The SDK's entry in the package's `dependencies:`.
    public static func packageDependency(_ sdk: ProjectConfig.SDKPackage) -> String {
        ".package(url: \(SwiftLiteral.string(sdk.url)), from: \(SwiftLiteral.string(sdk.version)))"
    }

    /// A product's entry in a target's `dependencies:`.
    public static func productDependency(_ product: String, packageIdentity: String) -> String {
        ".product(name: \(SwiftLiteral.string(product)), package: \(SwiftLiteral.string(packageIdentity)))"
    }

    /// `bytes` without what `wiring` added (per `markers`): the products, the package dependency,
    /// and the `dependencies:` arguments it created when nothing else is left in them.
    public static func unwiring(_ bytes: [UInt8], sdk: ProjectConfig.SDKPackage, markers: [String]) -> [UInt8] {
        var current = bytes
        // One removal at a time, each on a fresh parse: neighbouring removals share commas.
        while let edits = nextRemoval(in: current, sdk: sdk, markers: Set(markers)) {
            let next = SourceEdit.apply(edits, to: current)
            guard next != current else { break }
            current = next
        }
        return current
    }

    private static func nextRemoval(in bytes: [UInt8], sdk: ProjectConfig.SDKPackage, markers: Set<String>) -> [SourceEdit]? {
        let tree = bytes.withUnsafeBufferPointer { Parser.parse(source: $0) }
        let calls = tree.descendants(FunctionCallExprSyntax.self)
        for call in calls where linkedTargetKinds.contains(SyntaxValue.calleeName(call) ?? "") && !isDependencyReference(call) {
            guard let target = SyntaxValue.string(SyntaxValue.argument("name", of: call)?.expression),
                  let argument = SyntaxValue.argument("dependencies", of: call),
                  let array = argument.expression.as(ArrayExprSyntax.self) else { continue }
            let elements = Array(array.elements)
            if let index = elements.firstIndex(where: { element in
                guard let product = element.expression.as(FunctionCallExprSyntax.self), SyntaxValue.calleeName(product) == "product",
                      let name = SyntaxValue.string(SyntaxValue.argument("name", of: product)?.expression) else { return false }
                return markers.contains(Marker.product(name, of: target))
            }) {
                return ListItem.removal(of: index, in: elements.map(ListItem.init))
            }
            if elements.isEmpty, markers.contains(Marker.targetDependencies(target)), let index = call.arguments.firstIndex(of: argument) {
                return ListItem.removal(of: call.arguments.distance(from: call.arguments.startIndex, to: index), in: call.arguments.map(ListItem.init))
            }
        }
        guard let package = calls.first(where: { $0.calledExpression.is(DeclReferenceExprSyntax.self) && SyntaxValue.calleeName($0) == "Package" }),
              let argument = SyntaxValue.argument("dependencies", of: package),
              let array = argument.expression.as(ArrayExprSyntax.self) else { return nil }
        let elements = Array(array.elements)
        if markers.contains(Marker.package), let index = elements.firstIndex(where: { element in
            element.expression.as(FunctionCallExprSyntax.self).map { SyntaxValue.calleeName($0) == "package" && isSDKPackage($0, sdk: sdk) } ?? false
        }) {
            return ListItem.removal(of: index, in: elements.map(ListItem.init))
        }
        if elements.isEmpty, markers.contains(Marker.packageDependencies), let index = package.arguments.firstIndex(of: argument) {
            return ListItem.removal(of: package.arguments.distance(from: package.arguments.startIndex, to: index), in: package.arguments.map(ListItem.init))
        }
        return nil
    }

    /// The order of `Package.init`'s parameters up to `dependencies:`, which is created after the last of them present.
    private static let argumentsBeforeDependencies = ["name", "defaultLocalization", "platforms", "pkgConfig", "providers", "products"]

    private static func creatingDependencies(in package: FunctionCallExprSyntax, element: String, path: String,
                                             tree: SourceFileSyntax) throws(WiringError) -> [SourceEdit] {
        guard let previous = package.arguments.last(where: { argumentsBeforeDependencies.contains($0.label?.text ?? "") }) else {
            throw .unsupportedManifest(path: path, line: SyntaxValue.line(package.positionAfterSkippingLeadingTrivia.utf8Offset, in: tree, file: path),
                                       reason: "Package(...) has no name: argument")
        }
        let item = ListItem(previous)
        guard let indent = item.indent else { return item.insertingAfter("dependencies: [\(element)]") }
        // One level deeper in the file's own unit: the arguments' indent past the line `Package(` is on.
        let callLine = tree.description.utf8.prefix(package.positionAfterSkippingLeadingTrivia.utf8Offset)
        let callIndent = String(decoding: callLine.reversed().prefix { $0 != UInt8(ascii: "\n") }.reversed(), as: UTF8.self).prefix { $0 == " " || $0 == "\t" }
        let unit = indent.count > callIndent.count ? String(indent.dropFirst(callIndent.count)) : "    "
        return item.insertingAfter("dependencies: [\n\(indent)\(unit)\(element),\n\(indent)]")
    }

    private static func appending(_ elements: [String], to argument: LabeledExprSyntax, path: String,
                                  tree: SourceFileSyntax) throws(WiringError) -> [SourceEdit] {
        guard let array = argument.expression.as(ArrayExprSyntax.self) else {
            throw .unsupportedManifest(path: path, line: SyntaxValue.line(argument.positionAfterSkippingLeadingTrivia.utf8Offset, in: tree, file: path),
                                       reason: "`dependencies:` is not an array literal")
        }
        guard let last = array.elements.last else {
            return [.insert(elements.joined(separator: ", "), at: array.leftSquare.endPositionBeforeTrailingTrivia.utf8Offset)]
        }
        let item = ListItem(last)
        return item.insertingAfter(elements.joined(separator: "," + (item.indent.map { "\n" + $0 } ?? " ")))
    }

    /// The target kinds that link into the app and so get the SDK products.
    private static let linkedTargetKinds: Set<String> = ["target", "executableTarget"]
    private static let targetKinds: Set<String> = linkedTargetKinds.union(["systemLibrary", "binaryTarget", "plugin", "macro", "testTarget"])

    /// The call declaring target `name`: not a `.target(name:)` naming it in another target's `dependencies:`.
    private static func targetDeclaration(_ name: String, in calls: [FunctionCallExprSyntax]) -> FunctionCallExprSyntax? {
        calls.first { call in
            targetKinds.contains(SyntaxValue.calleeName(call) ?? "")
                && SyntaxValue.string(SyntaxValue.argument("name", of: call)?.expression) == name
                && !isDependencyReference(call)
        }
    }

    private static func isDependencyReference(_ call: FunctionCallExprSyntax) -> Bool {
        guard let element = call.parent?.as(ArrayElementSyntax.self),
              let argument = element.parent?.parent?.parent?.as(LabeledExprSyntax.self) else { return false }
        return argument.label?.text == "dependencies"
    }

    /// The product names a target's `dependencies:` lists: `.product(name:)`, `.byName(name:)` and plain strings.
    private static func dependencyNames(_ argument: LabeledExprSyntax) -> Set<String> {
        guard let array = argument.expression.as(ArrayExprSyntax.self) else { return [] }
        return Set(array.elements.compactMap { element in
            if let name = SyntaxValue.string(element.expression) { return name }
            guard let call = element.expression.as(FunctionCallExprSyntax.self) else { return nil }
            return SyntaxValue.string(SyntaxValue.argument("name", of: call)?.expression)
        })
    }

    private static func isSDKPackage(_ call: FunctionCallExprSyntax, sdk: ProjectConfig.SDKPackage) -> Bool {
        guard let url = SyntaxValue.string(SyntaxValue.argument("url", of: call)?.expression) else { return false }
        return normalizedRepository(url) == normalizedRepository(sdk.url)
    }

    /// A repository URL in one spelling: `https://github.com/o/r.git`, `git@github.com:o/r` and
    /// `https://GitHub.com/o/r/` are the same repository.
    static func normalizedRepository(_ url: String) -> String {
        var text = url.lowercased()
        for scheme in ["https://", "http://", "ssh://", "git+ssh://", "git://"] where text.hasPrefix(scheme) { text.removeFirst(scheme.count) }
        if let at = text.firstIndex(of: "@"), !text[..<at].contains("/") { text = String(text[text.index(after: at)...]) }
        if let colon = text.firstIndex(of: ":"), !text[..<colon].contains("/") { text.replaceSubrange(colon...colon, with: "/") }
        while text.hasSuffix("/") { text.removeLast() }
        if text.hasSuffix(".git") { text.removeLast(4) }
        return text
    }

    /// SwiftPM's identity of a remote package: the last path component, lowercased, without `.git`.
    public static func packageIdentity(_ url: String) -> String {
        String(normalizedRepository(url).split(separator: "/").last ?? "")
    }
}

extension SyntaxProtocol {
    /// Every node of `type` under this one, in source order.
    func descendants<Node: SyntaxProtocol>(_ type: Node.Type) -> [Node] {
        var found: [Node] = []
        var stack: [Syntax] = [Syntax(self)]
        while let node = stack.popLast() {
            if let match = node.as(Node.self) { found.append(match) }
            stack.append(contentsOf: node.children(viewMode: .sourceAccurate).reversed())
        }
        return found
    }
}
