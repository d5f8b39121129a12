import Foundation
import PatchManifest
import ProjectWiring
import SwiftParser
import SwiftSyntax

/// The platforms an app ships a native build for, read from its project (docs/prepare.md
/// "Platforms"). `prepare` records them in the baseline; each is a separate binary with its own
/// `#if` branches and fingerprint, and `build --platform` builds a module for one of them.
public enum ProjectPlatforms {
    /// Xcode's SDK names (`SUPPORTED_PLATFORMS`, `SDKROOT`); the simulators are the same platforms.
    static let sdkPlatforms: [String: AppPlatform] = [
        "iphoneos": .iOS, "iphonesimulator": .iOS, "macosx": .macOS, "xros": .visionOS, "xrsimulator": .visionOS,
        "appletvos": .tvOS, "appletvsimulator": .tvOS, "watchos": .watchOS, "watchsimulator": .watchOS,
    ]

    /// The app target's platforms, in `AppPlatform` order (iOS, when it is one, first: the default).
    /// An Xcode app target: its Release configuration's `SUPPORTED_PLATFORMS` (else `SDKROOT`; `auto`
    /// or nothing means iOS), plus Mac Catalyst when `SUPPORTS_MACCATALYST` is `YES`. A Swift package:
    /// the platforms its `Package.swift` lists in `platforms:`. iOS alone when the project says nothing.
    /// patch.json's `platforms`, when it lists them, win, in its order.
    public static func detect(config: ProjectConfig, root: String) throws(ProjectError) -> [AppPlatform] {
        if let listed = config.platforms { return listed }
        switch config.project.kind {
        case .xcodeProject:
            let file = Preparer.join(config.project.path, "project.pbxproj")
            guard let bytes = try ProjectSources.readIfPresent(Preparer.join(root, file)) else { return [.iOS] }
            let editor: XcodeProjectEditor
            do {
                editor = try XcodeProjectEditor(bytes: bytes, path: file)
            } catch {
                throw .unreadable(path: Preparer.join(root, file), reason: "\(error.description); the app's platforms are read from it")
            }
            return xcode { editor.buildSetting($0, ofTarget: config.appTarget) }
        case .swiftPackage:
            guard let bytes = try ProjectSources.readIfPresent(Preparer.join(root, config.project.path)) else { return [.iOS] }
            return package(manifest: bytes)
        }
    }

    /// From the app target's build settings (`setting(key)`: its words, empty when unset).
    static func xcode(setting: (String) -> [String]) -> [AppPlatform] {
        var platforms = Set(setting("SUPPORTED_PLATFORMS").compactMap { sdkPlatforms[$0] })
        if platforms.isEmpty { platforms = Set(setting("SDKROOT").compactMap { sdkPlatforms[$0] }) }
        if platforms.isEmpty { platforms = [.iOS] }
        if platforms.contains(.iOS), setting("SUPPORTS_MACCATALYST").contains("YES") { platforms.insert(.macCatalyst) }
        return platforms.sorted()
    }

    /// From a `Package.swift`: the `.iOS(…)`, `.macOS(…)`… entries of its `platforms:` argument.
    static func package(manifest: [UInt8]) -> [AppPlatform] {
        let tree = manifest.withUnsafeBufferPointer { Parser.parse(source: $0) }
        final class Finder: SyntaxVisitor {
            var platforms = Set<AppPlatform>()
            override func visit(_ node: LabeledExprSyntax) -> SyntaxVisitorContinueKind {
                guard node.label?.text == "platforms", let list = node.expression.as(ArrayExprSyntax.self) else { return .visitChildren }
                for element in list.elements {
                    let callee = element.expression.as(FunctionCallExprSyntax.self)?.calledExpression ?? element.expression
                    guard let member = callee.as(MemberAccessExprSyntax.self) else { continue }
                    let name = member.declName.baseName.text
                    if let platform = AppPlatform.allCases.first(where: { $0.operatingSystem == name && $0 != .macCatalyst })
                        ?? (name == "macCatalyst" ? .macCatalyst : nil) {
                        platforms.insert(platform)
                    }
                }
                return .skipChildren
            }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(tree)
        return finder.platforms.isEmpty ? [.iOS] : finder.platforms.sorted()
    }

    /// The platforms of `platforms` whose build compiles each change's code: the `#if` clauses
    /// around its line (`DeclarationChange.location`) are the active ones in that platform's build.
    /// Nil for a change with no line (a removed declaration). Each file is parsed once.
    static func compilingPlatforms(of changes: [DeclarationChange], platforms: [AppPlatform], root: String) -> [[AppPlatform]?] {
        var trees: [String: (tree: SourceFileSyntax, converter: SourceLocationConverter)] = [:]
        var unreadable = Set<String>()
        let configurations = platforms.map { GuestDeviceConfiguration(platform: $0) }
        var result: [[AppPlatform]?] = []
        for change in changes {
            let file = change.location.file
            if change.location.line > 0, trees[file] == nil, !unreadable.contains(file) {
                if let data = FileManager.default.contents(atPath: Preparer.join(root, file)) {
                    let tree = Parser.parse(source: String(decoding: data, as: UTF8.self))
                    trees[file] = (tree, SourceLocationConverter(fileName: file, tree: tree))
                } else {
                    unreadable.insert(file)
                }
            }
            guard change.location.line > 0, let parsed = trees[file] else {
                result.append(nil)
                continue
            }
            result.append(configurations.filter { $0.compiles(line: change.location.line, of: parsed.tree, converter: parsed.converter) }.map(\.platform))
        }
        return result
    }
}
