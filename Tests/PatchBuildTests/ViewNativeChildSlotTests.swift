import Foundation
@testable import PatchBuild
import PatchManifest
import Testing

/// A child view of the project that declares a wrapper SwiftUI fills natively (`@Environment`,
/// `@Query`, `@FocusState`…) is a slot where a lowered view uses it (docs/views.md "Tokens and
/// slots"): its host reads would need tokens the parent's thunk does not pass, and its copy would
/// not compile in the guest, so the host renders it as the shipped app does.
@Suite struct ViewNativeChildSlotTests {
    static let child = """
        import SwiftUI

        struct AccountStack: View {
            @Environment(\\.colorScheme) private var colorScheme
            let title: String
            var body: some View {
                Text(colorScheme == .dark ? title : "light")
            }
        }

        """
    /// Names no host wrapper itself: `prepare` reads it because it names `AccountStack`.
    static let parent = """
        import SwiftUI

        struct Settings: View {
            let title: String
            var body: some View {
                VStack {
                    Text("Settings")
                    AccountStack(title: title)
                        .padding(4)
                    Badge(title: title)
                }
            }
        }

        struct Badge: View {
            let title: String
            @State private var count = 0
            var body: some View { Text(title) }
        }

        """

    static let index = GuestSourceIndex(sources: [("Sources/App/AccountStack.swift", child), ("Sources/App/Settings.swift", parent)])

    static func table(_ name: String) throws -> ViewTokenTable {
        try ViewTokenAnalysis(index: index).analyze(type: try #require(index.lookupType(path: [name]))).get()
    }

    @Test func aChildViewReadingTheHostIsASlotAndOneWithoutIsNot() throws {
        let slots = try Self.table("Settings").tokens
        #expect(slots.map(\.expression) == ["AccountStack(title: title)"], "Badge holds only @State: it lowers in the tree")
        let slot = try #require(slots.first)
        #expect(slot.kind == .slot && slot.slotLabel == "AccountStack")
        #expect(slot.id == "op_" + SHA256Hasher.hex(of: Array("Settings\nAccountStack(title: title)".utf8)).prefix(12))
        // The child's own body reads its environment as a token, as any view's does.
        #expect(try Self.table("AccountStack").tokens.map(\.expression) == ["colorScheme == .dark"])
    }

    @Test func buildPutsTheOpaqueNodeWhereTheChildWas() throws {
        let settings = try Self.table("Settings")
        let request = GuestViewRequest(declarationID: "App:Settings.body", typeName: "Settings", path: ["Settings"],
                                       shippedTokens: settings.tokens.map(\.record))
        let outcome = ViewTokenRewrite.apply(to: Self.index, views: [request])
        #expect(outcome.unpatchable.isEmpty)
        let lines = outcome.index.files[1].tree.description.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[7] == "            _PatchOpaque(\"\(settings.tokens[0].id)\", label: \"AccountStack\")")
        #expect(lines[8] == "                .padding(4)", "the modifiers after the child stay in the guest, on the opaque node")
        #expect(lines[9] == "            Badge(title: title)")
    }

    @Test func prepareReadsTheFileNamingTheChildAndItsThunkPassesTheSlot() throws {
        let project = PreparedProject(targets: ["App": ["AccountStack.swift": Self.child, "Settings.swift": Self.parent]], appTarget: "App")
        let settings = try #require(project.plan.baseline.declarations.first { $0.id == "App:Settings.body" })
        let slot = try Self.table("Settings").tokens[0]
        #expect(settings.tokens == [slot.record])
        let files = project.files.filter { $0.key.hasPrefix("Sources/App/") }
        #expect(files.values.joined().contains("slots: { [\"\(slot.id)\": { AnyView(AccountStack(title: title)) }] }"))
        guard SDKStandIn.canRun else { return }
        let diagnostics = try SDKStandIn.typecheck(files)
        #expect(diagnostics == nil, "\(diagnostics ?? "")")
    }

    /// Reached through a helper of another type rather than as a statement of the body, the child
    /// would be copied with its wrapper: the view is refused with the child's declaration, before the
    /// guest compiler would fail on `@Environment` (it used to say "type annotation missing in pattern").
    @Test func aChildReachedThroughAnotherTypesHelperRefusesTheViewWithItsWrapper() throws {
        let screens = """
            import SwiftUI

            enum Screen {
                case account
                @ViewBuilder var destination: some View {
                    switch self {
                    case .account: AccountStack(title: "Account")
                    }
                }
            }

            struct Tabs: View {
                let screen: Screen
                var body: some View {
                    VStack {
                        screen.destination
                    }
                }
            }

            """
        let index = GuestSourceIndex(sources: [("Sources/App/AccountStack.swift", Self.child), ("Sources/App/Tabs.swift", screens)])
        let request = GuestViewRequest(declarationID: "App:Tabs.body", typeName: "Tabs", path: ["Tabs"])
        let program = GuestSourceGenerator(index: index).generate(exports: [], views: [request])
        #expect(program.views.isEmpty)
        let problem = try #require(program.unpatchable.first)
        #expect(problem.reason == .viewNotLowerable && problem.declarationID == "App:Tabs.body")
        #expect(problem.detail == "its code reaches AccountStack, which declares `@Environment(\\.colorScheme) private var colorScheme`: only the host fills @Environment, so AccountStack renders natively only as a slot, a statement of the lowered body naming it (`AccountStack(…)`), not through other code such as a helper of another type")
        #expect(problem.location == GuestSourceLocation(file: "Sources/App/AccountStack.swift", line: 4))
    }

    /// The child may live in another target (a package of the app's views): its file joins the analysis.
    @Test func aChildOfAnotherTargetIsASlotToo() throws {
        let kit = Self.child.replacingOccurrences(of: "struct AccountStack", with: "public struct AccountStack")
        let project = PreparedProject(targets: ["Kit": ["AccountStack.swift": kit], "App": ["Settings.swift": "import Kit\n" + Self.parent]],
                                      appTarget: "App")
        let settings = try #require(project.plan.baseline.declarations.first { $0.id == "App:Settings.body" })
        #expect(settings.tokens.map(\.expression) == ["AccountStack(title: title)"])
    }
}
