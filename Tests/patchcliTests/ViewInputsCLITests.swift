import Foundation
import Testing

/// What a real view stores and how it iterates, end to end (init → edit → build → `run --view`,
/// whose validator checks every tree against the IR schema): project structs and enums in the
/// inputs in the host's encoding (sdk-contract §5.4), `ForEach(_, id: \.id)`, `#if os(iOS)` and
/// `#if DEBUG` resolved as the device build resolves them, and `@AppStorage` written back through
/// dispatch.
@Suite(.serialized) struct ViewInputsCLITests {
    static let modelsFile = "Sources/Birds/Bird.swift"
    static let models = """
        import Foundation

        struct Bird: Identifiable {
            let id: String
            var name: String
            var seen: Date
            var kind: Kind
            var link: URL?
        }

        enum Kind {
            case songbird
            case raptor(wingspan: Double)
            case other(String)
        }

        enum Sort: String {
            case byName = "name"
            case byDate = "date"
        }

        """
    static let rowFile = "Sources/Birds/BirdRow.swift"
    static let row = """
        import SwiftUI

        struct BirdRow: View {
            let bird: Bird
            var body: some View {
                HStack {
                    Text(bird.name)
                    switch bird.kind {
                    case .songbird: Text("sings")
                    case .raptor(let wingspan): Text("wings \\(wingspan)")
                    case .other(let note): Text(note)
                    }
                }
            }
        }

        """
    static let listFile = "Sources/Birds/BirdList.swift"
    static let list = """
        import SwiftUI

        struct BirdList: View {
            let birds: [Bird]
            var sort: Sort = .byName
            @State private var focus: Kind = .songbird
            @AppStorage("compact") private var compact = false

            var body: some View {
                VStack {
                    #if os(iOS)
                    Text("iOS list")
                    #else
                    Text("other list")
                    #endif
                    #if DEBUG
                    Text("debug build")
                    #endif
                    ForEach(birds, id: \\.id) { bird in
                        BirdRow(bird: bird)
                    }
                    ForEach(0..<birds.count, id: \\.self) { position in
                        Text("#\\(position)")
                    }
                    Text(compact ? "compact" : "roomy")
                    Button("Compact") { compact.toggle() }
                    Button("Raptors") { focus = .raptor(wingspan: 2) }
                }
                #if canImport(UIKit)
                .padding(4)
                #endif
            }
        }

        """
    static let app = """
        import SwiftUI

        @main
        struct BirdsApp: App {
            var body: some Scene {
                WindowGroup { BirdList(birds: []) }
            }
        }

        """
    static let manifest = """
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(
            name: "Birds",
            platforms: [.iOS(.v17)],
            targets: [.executableTarget(name: "Birds")]
        )

        """

    @Test func projectTypesKeyPathIdentitiesIfConfigAndAppStorageLowerAndRender() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Birds")
            try ViewBuildCLITests.write(Self.manifest, to: "Package.swift", in: project)
            try ViewBuildCLITests.write(Self.app, to: "Sources/Birds/BirdsApp.swift", in: project)
            try ViewBuildCLITests.write(Self.models, to: Self.modelsFile, in: project)
            try ViewBuildCLITests.write(Self.row, to: Self.rowFile, in: project)
            try ViewBuildCLITests.write(Self.list, to: Self.listFile, in: project)
            let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path])
            #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")

            try ViewBuildCLITests.edit(project, Self.rowFile, replacing: #"Text("sings")"#, with: #"Text("sings!")"#)
            try ViewBuildCLITests.edit(project, Self.listFile, replacing: #"Text("iOS list")"#, with: #"Text("Birds")"#)

            let build = try CLI.run(["build", "--project", project.path, "--allow-native-changes", "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let report = try #require(build.result, "\(build.stdout)")
            let views = try #require(report["views"] as? [[String: Any]], "\(report)")
            #expect(views.map { $0["type"] as? String } == ["BirdList", "BirdRow"], "\(report)")
            #expect(views.first?["dispatch"] as? String == "dispatch__BirdList")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            // The host's encoding (§5.4): structs as objects of their stored properties, enums as
            // {"case":…} with the payload beside it, Date as epoch seconds, a nil Optional as null.
            let birds = #"[{"id":"b1","kind":{"case":"raptor","wingspan":1.5},"link":null,"name":"Hawk","seen":1700000000},"#
                + #"{"id":"b2","kind":{"case":"other","_0":"rare"},"link":"https://example.com/b2","name":"Wren","seen":1700000001.5}]"#
            let inputs = #"{"birds":\#(birds),"compact":false,"focus":{"case":"songbird"},"sort":{"case":"byDate"}}"#
            let row = try CLI.run(["run", module, "--view", "BirdRow", "--inputs", #"{"bird":{"id":"b3","kind":{"case":"songbird"},"link":null,"name":"Tit","seen":0}}"#])
            #expect(row.status == 0, "\(row.stdout)\(row.stderr)")
            #expect(row.stdout.contains("""
                hstack
                  text("Tit")
                  text("sings!")
                """), "\(row.stdout)")
            let rendered = try CLI.run(["run", module, "--view", "BirdList", "--inputs", inputs])
            #expect(rendered.status == 0, "\(rendered.stdout)\(rendered.stderr)")
            #expect(rendered.stdout.contains("""
                vstack .padding({top: 4, leading: 4, bottom: 4, trailing: 4})
                  text("Birds")
                  forEach
                    hstack
                      text("Hawk")
                      text("wings 1.5")
                    hstack
                      text("Wren")
                      text("rare")
                  forEach
                    text("#0")
                    text("#1")
                  text("roomy")
                """), "\(rendered.stdout)")
            #expect(!rendered.stdout.contains("other list") && !rendered.stdout.contains("debug build"), "\(rendered.stdout)")

            // @AppStorage and @State of a project enum are the state dispatch returns: the enum in
            // JSONEncoder's shape, which the host's JSONDecoder writes back into the native @State.
            let tapped = try CLI.run(["run", module, "--view", "BirdList", "--inputs", inputs, "--event", "action_0", "--event", "action_1"])
            #expect(tapped.status == 0, "\(tapped.stdout)\(tapped.stderr)")
            #expect(tapped.stdout.contains(#"-> state {"compact":true,"focus":{"songbird":{}}}"#), "\(tapped.stdout)")
            #expect(tapped.stdout.contains(#"-> state {"compact":true,"focus":{"raptor":{"wingspan":2}}}"#), "\(tapped.stdout)")
            #expect(tapped.stdout.contains(#"text("compact")"#), "\(tapped.stdout)")
        }
    }
}
