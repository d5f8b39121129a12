import Foundation
@testable import PatchBuild
import PatchManifest
import Testing

/// The app's named colors (docs/views.md "Tokens and slots"; ACHNBrowserUI's `extension Color {
/// static var acText: Color { Color("ACText", bundle: .module) } }` in its design package, read as
/// `.foregroundColor(.acText)` in 14 bodies): each read is a color token the thunk evaluates
/// natively, under an id that is the same in every view, and the guest reads the token instead of
/// copying the extension, whose asset-catalog initializer it cannot compile.
@Suite struct ViewDesignColorTests {
    static let colors = """
        import Foundation
        import SwiftUI

        public let DesignBundle = Bundle.main

        extension Color {
            public static var acText: Color {
                Color("ACText", bundle: DesignBundle)
            }

            public static let accent = Color("Accent", bundle: DesignBundle)
        }

        """
    static let screens = """
        import SwiftUI

        enum Badge {
            case accent, plain
        }

        struct Row: View {
            let title: String
            let badge: Badge
            var body: some View {
                VStack {
                    Text(title)
                        .foregroundColor(.acText)
                    Text("Hint")
                        .foregroundColor(Color.acText)
                    if badge == .accent {
                        Divider().background(Color.accent)
                    }
                }
            }
        }

        struct Header: View {
            var body: some View {
                Text("Header").foregroundColor(.acText)
            }
        }

        """

    /// The app's text style, as ACHNBrowserUI's `Text.style(appStyle:)` is, reading the colors in its
    /// own members and in a private one it calls.
    static let textStyle = """
        import SwiftUI

        extension Text {
            func rowTitle() -> Text {
                emphasized().foregroundColor(.acText)
            }

            private func emphasized() -> Text {
                bold().foregroundColor(Color.accent)
            }
        }

        """
    /// A view calling it, in a file naming no color.
    static let titled = """
        import SwiftUI

        struct Titled: View {
            let title: String
            var body: some View {
                Text(title).rowTitle()
            }
        }

        """

    static let index = GuestSourceIndex(sources: [("Sources/Design/Colors.swift", colors), ("Sources/App/Screens.swift", screens),
                                                  ("Sources/App/TextStyle.swift", textStyle), ("Sources/App/Titled.swift", titled)])

    static func table(_ name: String) throws -> ViewTokenTable {
        try ViewTokenAnalysis(index: index).analyze(type: try #require(index.lookupType(path: [name]))).get()
    }

    @Test func readsOfTheAppsColorsAreColorTokensWhoseIdsNoViewChanges() throws {
        let row = try Self.table("Row")
        // `.accent` compared with the badge is the enum's case; `Color.accent` is the color.
        #expect(Set(row.tokens.map(\.expression)) == ["Color.acText", "Color.accent"])
        #expect(row.tokens.allSatisfy { $0.kind == .color })
        #expect(row.uses.count == 3, "both reads of acText, one of accent: \(row.uses.map(\.token.expression))")
        let acText = try #require(row.tokens.first { $0.expression == "Color.acText" })
        #expect(acText.id == "ct_" + SHA256Hasher.hex(of: Array("\nColor.acText".utf8)).prefix(12))
        #expect(acText.guestRead == "Color(_patchHostToken: \"\(acText.id)\")")
        #expect(acText.thunkEntry == "\"\(acText.id)\": .color(Color.acText)")
        #expect(try Self.table("Header").tokens == [acText], "another view's read is the same token")
        // The colors may come from another module, which the view's file imports.
        #expect(row.needsViewFileScope)
    }

    /// A view calling the app's extension member reads the colors that member and those it calls read,
    /// where they are: the guest's copy of the extension reads the tokens.
    @Test func aViewCallingTheAppsTextStylePassesTheColorsTheStyleReads() throws {
        let titled = try Self.table("Titled")
        #expect(titled.tokens == [ViewToken(designColor: "acText"), ViewToken(designColor: "accent")].sorted { $0.id < $1.id })
        let styleFile = try #require(Self.index.files.firstIndex { $0.relativePath == "Sources/App/TextStyle.swift" })
        #expect(titled.uses.allSatisfy { $0.file == styleFile } && titled.uses.map(\.line).sorted() == [5, 9], "\(titled.uses.map(\.line))")
    }

    /// A view that reads none of them has no token, and a project declaring none pays nothing.
    @Test func otherStaticMembersAndEnumCasesAreNoColors() throws {
        let source = """
            import SwiftUI
            extension Font { static let display = Font.title }
            extension Color { static func tint(_ level: Int) -> Color { .red } }
            struct Plain: View {
                var body: some View { Text("x").font(.display).foregroundColor(.tint(1)) }
            }
            """
        let index = GuestSourceIndex(sources: [("Sources/App/Plain.swift", source)])
        #expect(ViewDesignColors(index: index).names.isEmpty)
        let table = try ViewTokenAnalysis(index: index).analyze(type: try #require(index.lookupType(path: ["Plain"]))).get()
        #expect(table.isEmpty)
        // An app redeclaring SwiftUI's `primary` (enchanted's `Color(.label)`): `.primary` where a shape
        // style is expected is still SwiftUI's hierarchical style; `Color.primary` is the app's.
        let redeclared = """
            import SwiftUI
            extension Color { static let primary = Color(red: 0.1, green: 0.1, blue: 0.1) }
            struct Caption: View {
                var body: some View { Text("x").foregroundStyle(.primary).background(Color.primary) }
            }
            """
        let app = GuestSourceIndex(sources: [("Sources/App/Caption.swift", redeclared)])
        let caption = try ViewTokenAnalysis(index: app).analyze(type: try #require(app.lookupType(path: ["Caption"]))).get()
        #expect(caption.uses.map(\.token) == [ViewToken(designColor: "primary")] && caption.uses.first?.line == 4)
    }

    /// `prepare` reads the design package's file (another target) with the views that name its colors,
    /// records the tokens in the baseline, and puts the thunk in the view's file.
    @Test func prepareRecordsTheTokensOfColorsDeclaredInAnotherTarget() throws {
        let project = PreparedProject(targets: ["Design": ["Colors.swift": Self.colors],
                                                "App": ["Screens.swift": Self.screens, "TextStyle.swift": Self.textStyle, "Titled.swift": Self.titled]], appTarget: "App")
        let header = try #require(project.plan.baseline.declarations.first { $0.id == "App:Header.body" }?.tokens)
        #expect(header.map(\.expression) == ["Color.acText"] && header.map(\.kind) == [.color], "\(header)")
        #expect(header.map(\.id) == [ViewToken(designColor: "acText").id])
        // The file calling the style names no color: `.rowTitle(` has it read, with the style's file.
        let titled = try #require(project.plan.baseline.declarations.first { $0.id == "App:Titled.body" }?.tokens)
        #expect(Set(titled.map(\.expression)) == ["Color.acText", "Color.accent"], "\(titled)")
        let screens = try #require(project.files["Sources/App/Screens.swift"])
        #expect(screens.contains(".color(Color.acText)"), "the thunk is in the view's file: \(screens)")
    }

    /// `build` compiles the views with the tokens in place of the reads, and without the colors' extension.
    @Test func theGuestReadsTheTokensInsteadOfTheExtension() throws {
        let sources = try GuestHarness.temporaryDirectory("design-color-sources")
        for (name, text) in [("Colors.swift", Self.colors), ("Screens.swift", Self.screens), ("TextStyle.swift", Self.textStyle), ("Titled.swift", Self.titled)] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: (sources as NSString).appendingPathComponent(name)))
        }
        // Two views calling the style: its reads are rewritten once.
        let views = try ["Row", "Titled", "Header"].map { name in
            GuestViewRequest(declarationID: "App:\(name).body", typeName: name, path: [name], shippedTokens: try Self.table(name).tokens.map(\.record))
        } + [GuestViewRequest(declarationID: "App:Other.body", typeName: "Titled", path: ["Titled"], shippedTokens: [])]
        let output = try GuestHarness.temporaryDirectory("design-color-output")
        let result = try GuestModuleBuilder.build(GuestBuildRequest(
            sourcesDirectory: sources, exports: [], views: Array(views.prefix(3)),
            outputDirectory: output, toolchain: try Toolchain.discover()))
        #expect(result.manifest.views?.map(\.type).sorted() == ["Header", "Row", "Titled"], "\(result.manifest.unpatchable)")
        let program = try String(contentsOfFile: (output as NSString).appendingPathComponent("PatchGuest.swift"), encoding: .utf8)
        for token in try Self.table("Row").tokens { #expect(program.contains("Color(_patchHostToken: \"\(token.id)\")"), "\(program)") }
        #expect(program.contains("emphasized().foregroundColor(Color(_patchHostToken: \"\(ViewToken(designColor: "acText").id)\"))"), "\(program)")
        #expect(!program.contains("extension Color") && !program.contains("bundle:"), "\(program)")

        // A thunk that passes none of them (an earlier prepare's) cannot show the style: a new app build is needed.
        let stale = try GuestModuleBuilder.build(GuestBuildRequest(
            sourcesDirectory: sources, exports: [], views: [views[0], views[3]],
            outputDirectory: try GuestHarness.temporaryDirectory("design-color-stale"), toolchain: try Toolchain.discover()))
        let refused = try #require(stale.manifest.unpatchable.first { $0.declarationID == "App:Other.body" })
        #expect(refused.reason == .viewNeedsNewHostValue && refused.detail.hasPrefix("reads `Color."), "\(refused)")
    }
}

/// The thunk passing the app's colors compiles against the SDK stand-in (`PatchHostToken.color`, §11).
@Suite(.enabled(if: SDKStandIn.canRun, "swiftc not found on PATH (set SWIFTC)"))
struct ViewDesignColorCompileTests {
    @Test func thunksPassingTheAppsColorsCompile() throws {
        let header = """
            import SwiftUI
            struct Header: View {
                var body: some View {
                    Text("Header").foregroundColor(.acText)
                }
            }
            """
        let project = PreparedProject(targets: ["App": ["Colors.swift": ViewDesignColorTests.colors, "Header.swift": header]], appTarget: "App")
        let files = project.files.filter { $0.key.hasPrefix("Sources/App/") }
        #expect(files["Sources/App/Header.swift"]?.contains(".color(Color.acText)") == true, "\(files)")
        let diagnostics = try SDKStandIn.typecheck(files)
        #expect(diagnostics == nil, "\(diagnostics ?? "")")
    }
}
