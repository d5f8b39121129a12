import Foundation
import Testing

/// A view with a native-only leaf still ships (issue 17): `prepare` (through `init`) passes the
/// leaf as a slot from the thunk and records it in the baseline; after an edit around it, `build`
/// lowers the body with an opaque node where the leaf was, which `run --view` shows.
@Suite(.serialized) struct ViewSlotsCLITests {
    static let placeFile = "Sources/Greeter/PlaceCard.swift"
    static let place = """
        import SwiftUI
        import MapKit

        /// The app's map: UIKit, which only the host can draw.
        struct PinMap: UIViewRepresentable {
            let pin: String
            func makeUIView(context: Context) -> MKMapView { MKMapView() }
            func updateUIView(_ view: MKMapView, context: Context) {}
        }

        struct PlaceCard: View {
            let name: String

            var body: some View {
                VStack {
                    Text("Visit \\(name)")
                    PinMap(pin: name)
                        .padding(8)
                    Text("Open daily")
                }
            }
        }

        """
    static let app = """
        import SwiftUI

        @main
        struct GreeterApp: App {
            var body: some Scene {
                WindowGroup { PlaceCard(name: "Park") }
            }
        }

        """

    @Test func aViewWithARepresentableChildShipsWithASlot() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Greeter")
            try ViewBuildCLITests.write(ViewBuildCLITests.manifest, to: "Package.swift", in: project)
            try ViewBuildCLITests.write(Self.app, to: "Sources/Greeter/GreeterApp.swift", in: project)
            try ViewBuildCLITests.write(Self.place, to: Self.placeFile, in: project)
            let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path])
            #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")

            // The baseline records the slot; the shipped thunk passes it.
            let baseline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: project.appendingPathComponent(".patch/baseline.json"))) as? [String: Any])
            let declarations = try #require(baseline["declarations"] as? [[String: Any]])
            let slots = try #require(declarations.first { $0["id"] as? String == "Greeter:PlaceCard.body" }?["tokens"] as? [[String: Any]])
            #expect(slots.map { $0["kind"] as? String } == ["slot"] && slots.first?["expression"] as? String == "PinMap(pin: name)", "\(slots)")
            let slotID = try #require(slots.first?["id"] as? String)
            #expect(slotID.hasPrefix("op_"))
            let generated = FileManager.default.enumerator(atPath: project.appendingPathComponent("Sources").path)?.compactMap { $0 as? String }
                .filter { $0.hasSuffix(".swift") } ?? []
            let routing = try generated.map { try String(contentsOf: project.appendingPathComponent("Sources/" + $0), encoding: .utf8) }
                .first { $0.contains(#"typeName: "PlaceCard""#) } ?? ""
            #expect(routing.contains(#"typeName: "PlaceCard", instance: self, slots: { ["\#(slotID)": { AnyView(PinMap(pin: name)) }] })"#), "\(routing)")

            try ViewBuildCLITests.edit(project, Self.placeFile, replacing: #"Text("Open daily")"#, with: #"Text("Open daily, 9 to 5")"#)
            let build = try CLI.run(["build", "--project", project.path, "--allow-native-changes", "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let report = try #require(build.result, "\(build.stdout)")
            let changes = try #require(report["changes"] as? [[String: Any]])
            #expect(changes.first { $0["id"] as? String == "Greeter:PlaceCard.body" }?["status"] as? String == "patched", "\(changes)")

            let module = project.appendingPathComponent(".patch/build/module.wasm").path
            let rendered = try CLI.run(["run", module, "--view", "PlaceCard", "--inputs", #"{"name":"Park"}"#])
            #expect(rendered.status == 0, "\(rendered.stdout)\(rendered.stderr)")
            #expect(rendered.stdout.contains("text(\"Visit Park\")"), "\(rendered.stdout)")
            // The slot's node, with the leaf's modifier.
            let opaque = rendered.stdout.split(separator: "\n").first { $0.contains("opaque") && $0.contains(slotID) }
            #expect(opaque?.contains("PinMap") == true && opaque?.contains(".padding") == true, "\(rendered.stdout)")
            #expect(rendered.stdout.contains("text(\"Open daily, 9 to 5\")"), "\(rendered.stdout)")
        }
    }

    static let badgeFile = "Sources/Greeter/Badge.swift"
    static let badge = """
        import SwiftUI

        /// A shape of the app's own drawn by the layout direction the host reads (food-truck's gauge
        /// segments): the shipped thunk passes it as a slot.
        struct Notch: Shape {
            var depth: Double
            var layoutDirection: LayoutDirection
            func path(in rect: CGRect) -> Path {
                var path = Path()
                path.addRect(rect.insetBy(dx: layoutDirection == .leftToRight ? depth : -depth, dy: depth))
                return path
            }
        }

        struct Badge: View {
            @Environment(\\.layoutDirection) var layoutDirection

            var body: some View {
                VStack {
                    Notch(depth: 2, layoutDirection: layoutDirection)
                        .fill(.tint)
                    Text("New")
                }
            }
        }

        """

    @Test func aFilledShapeOfTheProjectShipsAsASlotWithItsForegroundStyle() throws {
        try withScratchDirectory { directory in
            let project = directory.appendingPathComponent("Greeter")
            try ViewBuildCLITests.write(ViewBuildCLITests.manifest, to: "Package.swift", in: project)
            try ViewBuildCLITests.write(Self.app.replacingOccurrences(of: #"PlaceCard(name: "Park")"#, with: "Badge()"),
                                        to: "Sources/Greeter/GreeterApp.swift", in: project)
            try ViewBuildCLITests.write(Self.badge, to: Self.badgeFile, in: project)
            let initialized = try CLI.run(["init", "--project", project.path, "--key-dir", directory.appendingPathComponent("keys").path])
            #expect(initialized.status == 0, "\(initialized.stdout)\(initialized.stderr)")

            try ViewBuildCLITests.edit(project, Self.badgeFile, replacing: #"Text("New")"#, with: #"Text("New!")"#)
            let build = try CLI.run(["build", "--project", project.path, "--allow-native-changes", "--json"])
            #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
            let report = try #require(build.result, "\(build.stdout)")
            let changes = try #require(report["changes"] as? [[String: Any]])
            #expect(changes.first { $0["id"] as? String == "Greeter:Badge.body" }?["status"] as? String == "patched", "\(changes)")

            // The shape is the slot; `.fill(.tint)` is its foreground style, which the host applies
            // to any node (its `fill` only to its own shapes).
            let rendered = try CLI.run(["run", project.appendingPathComponent(".patch/build/module.wasm").path, "--view", "Badge"])
            #expect(rendered.status == 0, "\(rendered.stdout)\(rendered.stderr)")
            let opaque = rendered.stdout.split(separator: "\n").first { $0.contains("opaque") }
            #expect(opaque?.contains(#"label: "Notch"#) == true && opaque?.hasSuffix(#".foregroundStyle([semantic("tint")])"#) == true,
                    "\(rendered.stdout)")
            #expect(rendered.stdout.contains(#"text("New!")"#), "\(rendered.stdout)")
        }
    }
}
