import Foundation
@testable import PatchBuild
import PatchManifest
import SwiftSyntax
import Testing

/// Bodies calling the app's extensions of SwiftUI types (docs/views.md "Tokens and slots"), as
/// ACHNBrowserUI does 65 times with `Image(systemName: …).style(appStyle: .barButton)`: an
/// extension member that lowers travels into the guest with its extension, nested types included
/// (`Text.AppTextStyle`); one built on a modifier the IR has no case for (`Image.style(appStyle:)`,
/// through a private `barButton()` applying `.resizable()`) makes the chain up to its call a slot.
@Suite struct ViewNativeExtensionTests {
    /// The app's styles (Fixtures/NativeExtensions/Styles.swift, shared with ViewNativeExtensionCLITests).
    static let styles = try! String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/NativeExtensions/Styles.swift"), encoding: .utf8)
    static let toolbar = """
        import SwiftUI

        struct Toolbar: View {
            let title: String
            var body: some View {
                VStack {
                    Text(title).style(appStyle: .title)
                    Image(systemName: "gear")
                        .style(appStyle: .barButton)
                        .foregroundColor(.red)
                }
            }
        }

        struct Icon: View {
            var body: some View {
                Image(systemName: "gear").style(appStyle: .barButton)
            }
        }

        """

    static let index = GuestSourceIndex(sources: [("Sources/App/Styles.swift", styles), ("Sources/App/Toolbar.swift", toolbar)])

    static func analyze(_ name: String) throws -> Result<ViewTokenTable, ViewTokenProblem> {
        ViewTokenAnalysis(index: index).analyze(type: try #require(index.lookupType(path: [name])))
    }

    @Test func anExtensionBuiltOnANativeOnlyModifierIsASlotWhereTheBodyCallsIt() throws {
        let slots = try Self.analyze("Toolbar").get().tokens
        // `Text.style(appStyle:)` lowers: only the Image's chain, up to the call, is native.
        #expect(slots.map(\.expression) == ["Image(systemName: \"gear\")\n.style(appStyle: .barButton)"])
        let slot = try #require(slots.first)
        #expect(slot.kind == .slot && slot.slotLabel == "Image")
        #expect(slot.id == "op_" + SHA256Hasher.hex(of: Array("Toolbar\nImage(systemName: \"gear\")\n.style(appStyle: .barButton)".utf8)).prefix(12))
        // Alone in a body it is the whole body, which a patch could not change: the reason names the extension.
        let icon = try #require(Self.analyze("Icon").failure)
        #expect(icon.detail.hasPrefix("`.style(…)` is the app's extension of Image (Sources/App/Styles.swift:8), which applies `.resizable(…)`: that has no modifier in the view IR (sdk-contract §5.6.5), so only the host can apply it"), "\(icon.detail)")
        #expect(icon.detail.contains("is the whole body, which cannot be a slot"), "\(icon.detail)")
        #expect(icon.location == GuestSourceLocation(file: "Sources/App/Toolbar.swift", line: 17))
    }

    /// `build` compiles the view with the slot in the Image's place and the Text's extension, with its
    /// nested enum, in a copy of `extension Text`; the Image's extension stays out of the guest.
    @Test func theGuestCarriesTheExtensionThatLowersWithItsNestedType() throws {
        let sources = try GuestHarness.temporaryDirectory("native-extension-sources")
        for (name, text) in [("Styles.swift", Self.styles), ("Toolbar.swift", Self.toolbar)] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: (sources as NSString).appendingPathComponent(name)))
        }
        let folderIndex = GuestSourceIndex(sources: [("Styles.swift", Self.styles), ("Toolbar.swift", Self.toolbar)])
        let shipped = try ViewTokenAnalysis(index: folderIndex).analyze(type: try #require(folderIndex.lookupType(path: ["Toolbar"]))).get().tokens
        let output = try GuestHarness.temporaryDirectory("native-extension-output")
        let result = try GuestModuleBuilder.build(GuestBuildRequest(
            sourcesDirectory: sources, exports: [],
            views: [GuestViewRequest(declarationID: "App:Toolbar.body", typeName: "Toolbar", path: ["Toolbar"], shippedTokens: shipped.map(\.record))],
            outputDirectory: output, toolchain: try Toolchain.discover()))
        #expect(result.manifest.views?.map(\.type) == ["Toolbar"], "\(result.manifest.unpatchable)")
        let program = try String(contentsOfFile: (output as NSString).appendingPathComponent("PatchGuest.swift"), encoding: .utf8)
        #expect(program.contains("extension Text {") && program.contains("enum AppTextStyle"), "\(program)")
        #expect(program.contains("_PatchOpaque(\"\(shipped[0].id)\", label: \"Image\")"))
        #expect(!program.contains("AppImageStyle") && !program.contains("resizable"), "`Text.style` is no reason to copy `Image.style`")
    }

    /// `prepare` finds the extension in another target (a package of the app's styles) and reads the
    /// files calling it, so the shipped thunk passes the slot `build` expects; the thunk compiles.
    @Test func prepareFindsTheExtensionInAnyTargetAndTheThunkPassesTheSlot() throws {
        let slot = try Self.analyze("Toolbar").get().tokens[0]
        // The Text's overload in a file of its own, as ACHNBrowserUI has it: prepare reads it too, or
        // it would take `Text(title).style(appStyle: .title)` for the Image's and pass a slot for it.
        let split = try #require(Self.styles.range(of: "public extension Text"))
        let kitFiles = ["Images.swift": String(Self.styles[..<split.lowerBound]), "Texts.swift": "import SwiftUI\n\n" + Self.styles[split.lowerBound...]]
        let kit = PreparedProject(targets: ["Kit": kitFiles, "App": ["Toolbar.swift": "import Kit\n" + Self.toolbar]], appTarget: "App")
        let toolbar = try #require(kit.plan.baseline.declarations.first { $0.id == "App:Toolbar.body" })
        #expect(toolbar.tokens.map(\.expression) == [slot.expression])

        let project = PreparedProject(targets: ["App": ["Styles.swift": Self.styles, "Toolbar.swift": Self.toolbar]], appTarget: "App")
        #expect(project.plan.baseline.declarations.first { $0.id == "App:Toolbar.body" }?.tokens == [slot.record])
        let files = project.files.filter { $0.key.hasPrefix("Sources/App/") }
        #expect(files.values.joined().contains("slots: { [\"\(slot.id)\": { AnyView(Image(systemName: \"gear\")\n.style(appStyle: .barButton)) }] }"))
        guard SDKStandIn.canRun else { return }
        let diagnostics = try SDKStandIn.typecheck(files)
        #expect(diagnostics == nil, "\(diagnostics ?? "")")
    }

    /// A function module has no SwiftUI: a type nested in an extension of a framework type it lacks,
    /// reached by name, stays out of its closure as the extension's members do.
    @Test func aFunctionExportDoesNotReachATypeNestedInAFrameworkTypesExtension() throws {
        let source = """
            import SwiftUI

            extension Color {
                enum Theme { case dark }
            }

            enum Palette {
                enum Theme { case light }
            }

            func themeName(_ isDark: Bool) -> String { isDark ? "Theme.dark" : "\\(Palette.Theme.light)" }

            """
        let index = GuestSourceIndex(sources: [("Sources/App/Theme.swift", source)])
        let nested = try #require(index.types.firstIndex { $0.path == ["Color", "Theme"] })
        #expect(index.types[nested].foreignExtension?.extendedType.trimmedText == "Color")
        let global = try #require(index.globals(named: "themeName").first)
        let closure = GuestDependencyClosure(index: index, withoutFrameworkExtensions: true).closure(of: .global(global))
        #expect(!closure.contains(.typeShell(nested)))
        #expect(closure.contains(.typeShell(try #require(index.type(atPath: ["Palette", "Theme"])))))
        #expect(GuestDependencyClosure(index: index).closure(of: .global(global)).contains(.typeShell(nested)), "a view's closure may reach it")
    }

    /// The closure finds members by name: `Text(title).style(…)` names `Image.style(appStyle:)` too,
    /// which could only fail the guest's compile (and cost an attempt to drop it).
    @Test func aViewsClosureLeavesOutTheNativeOverload() throws {
        let toolbar = try #require(Self.index.lookupType(path: ["Toolbar"]))
        let body = try #require(Self.index.types[toolbar].members.firstIndex { $0.names == ["body"] })
        let closure = GuestDependencyClosure(index: Self.index).closure(of: .member(type: toolbar, member: body))
        let styles = Self.index.globals(named: "style")
        let extended = { (global: Int) in Self.index.globals[global].foreignExtension?.extendedType.trimmedText }
        #expect(styles.map(extended) == ["Image", "Text"])
        #expect(styles.filter { closure.contains(.global($0)) }.map(extended) == ["Text"])
        #expect(closure.contains(.typeShell(try #require(Self.index.type(atPath: ["Text", "AppTextStyle"])))))
    }
}
