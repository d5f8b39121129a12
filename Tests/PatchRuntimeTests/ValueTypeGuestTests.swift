import Foundation
import PatchBuild
@testable import PatchRuntime
import Testing

/// The value types real views and models hold, compiled by `build`'s guest pipeline (generated
/// codecs, prelude, view DSL) and executed: functions receive them in JSONEncoder's shapes, views
/// in the host's encoding of their inputs (sdk-contract §5.4), every tree passes the IR validator
/// `run --view` uses, and the state dispatch returns (JSONEncoder's shapes, which the host's
/// JSONDecoder writes back) decodes again when it comes back merged into the next inputs.
@Suite(.enabled(if: GuestBuilder.canCompile, "needs the Swift toolchain's swiftc/clang/wasm-ld (required under CI=true)"))
struct ValueTypeGuestTests {
    static let models = """
        import SwiftUI

        typealias Score = Int

        enum Tag: String, Hashable, Codable { case shade, sun }

        struct Plant: Identifiable, Hashable {
            typealias ID = String
            var id: ID
            var name: String
            var tags: Set<Tag>
            var initial: Character
            var position: CGPoint
            var subtitle: String?
            var note: String??
        }

        struct Bed: Identifiable {
            let id: UUID
            var frame: CGRect
            var counts: [Int: String]
            var byTag: [Tag: Score]
            var drift: CGVector
        }

        struct Gardener {
            var name: String
        }

        /// JSONEncoder's shapes: sets and Int-keyed dictionaries as the host's, other keys flat.
        func tally(_ counts: [Int: Int], tags: Set<Tag>, ranks: [Tag: Score], note: String??) -> [Int: Int] {
            var result = counts
            result[tags.count] = ranks.values.reduce(0, +)
            if case .some(.none) = note { result[-1] = 0 }
            return result
        }

        struct Seed: Identifiable {
            typealias ID = String
            var id: ID
        }

        /// `Seed.ID` reaches Seed; `Plant.ID` would reach Plant, whose CGPoint is a view stand-in only.
        func picks(_ ids: Set<Seed.ID>) -> Set<Seed.ID> {
            ids.union(["basil"])
        }

        func widened(_ range: ClosedRange<Int>) -> Range<Int> {
            (range.lowerBound - 1)..<(range.upperBound + 2)
        }

        """

    static let view = """
        import SwiftUI

        struct PlantCard: View {
            let plant: Plant
            let bed: Bed
            var gardener: Gardener?
            var size: CGSize = CGSize(width: 40, height: 30)
            var window: ClosedRange<Int> = 0...1
            @State private var marker: CGPoint = .zero
            @State private var area: CGRect = .zero
            @State private var picked: Set<Plant.ID> = []
            @State private var grade: Character = "A"
            @State private var notes: [Int: String] = [:]
            @State private var byTag: [Tag: Int] = [:]

            var body: some View {
                VStack {
                    Text(plant.name + " " + String(plant.initial) + " \\(window.lowerBound)-\\(window.upperBound)")
                    Text(plant.subtitle ?? "no subtitle")
                    if let name = gardener?.name {
                        Text("by \\(name)")
                    }
                    if let note = plant.note, let text = note {
                        Text(text)
                    }
                    Text("\\(bed.counts[2] ?? "-") \\(bed.byTag[.sun] ?? 0) \\(plant.tags.contains(.shade))")
                    Rectangle()
                        .frame(width: size.width, height: bed.frame.height)
                        .offset(size)
                        .position(plant.position)
                    Text("\\(Int(bed.frame.midX)) \\(Int(bed.drift.dy)) \\(Int(marker.x)) \\(Int(area.maxY))")
                    Text("\\(picked.sorted().joined(separator: ",")) \\(String(grade)) \\(notes[7] ?? "-") \\(byTag[.shade] ?? 0)")
                    Button("Pick") {
                        picked.insert(plant.id)
                        marker = CGPoint(x: 3, y: 4)
                        area = CGRect(x: 1, y: 2, width: 3, height: 4)
                        grade = "B"
                        notes[7] = "seven"
                        byTag[.shade] = 2
                    }
                }
            }
        }

        """

    /// One build shared by the tests (building takes seconds).
    static let built: Result<(module: [UInt8], symbols: [String: String]), GuestBuilder.BuildFailure> = {
        do {
            let sources = try GuestBuilder.scratch()
            try models.write(to: sources.appendingPathComponent("Garden.swift"), atomically: true, encoding: .utf8)
            try view.write(to: sources.appendingPathComponent("PlantCard.swift"), atomically: true, encoding: .utf8)
            let output = try GuestBuilder.scratch()
            let result = try GuestModuleBuilder.build(GuestBuildRequest(
                sourcesDirectory: sources.path, exports: ["tally(_:tags:ranks:note:)", "picks(_:)", "widened(_:)"],
                views: [GuestViewRequest(declarationID: "Garden:PlantCard.body", typeName: "PlantCard", path: ["PlantCard"])],
                outputDirectory: output.path, toolchain: try Toolchain.discover()))
            guard result.manifest.unpatchable.isEmpty else {
                return .failure(GuestBuilder.BuildFailure(description: "left native: " + result.manifest.unpatchable.map { "\($0.declarationID): \($0.detail)" }.joined(separator: "; ")))
            }
            let bytes = [UInt8](try Data(contentsOf: output.appendingPathComponent("module.wasm")))
            let symbols = Dictionary(uniqueKeysWithValues: result.manifest.exports.map { ($0.declarationID, $0.symbol) })
            return .success((bytes, symbols))
        } catch {
            return .failure(GuestBuilder.BuildFailure(description: "value-type guest build failed: \(error)"))
        }
    }()

    let guest: RuntimeSession
    let symbols: [String: String]

    init() throws {
        let (module, symbols) = try Self.built.get()
        guest = try session(module)
        self.symbols = symbols
    }

    func call(_ declaration: String, _ input: String) throws -> String {
        let symbol = try #require(symbols[declaration], "\(symbols)")
        let output = try #require(try guest.callPacked(symbol, input: Array(input.utf8)).output)
        return String(decoding: output, as: UTF8.self)
    }

    @Test func functionsTakeAndReturnSetsIntKeyedAndOtherKeyedDictionariesAndNestedOptionals() throws {
        // JSONEncoder writes [Int: V] as an object of decimal keys, [Tag: V] flat as key, value, key, value.
        #expect(try call("tally(_:tags:ranks:note:)", #"{"counts":{"10":1,"2":5},"tags":["sun","shade","sun"],"ranks":["sun",3,"shade",4],"note":"n"}"#)
            == #"{"value":{"10":1,"2":7}}"#)
        // A null String?? is the outer nil, as JSONDecoder reads it.
        #expect(try call("tally(_:tags:ranks:note:)", #"{"counts":{},"tags":[],"ranks":[],"note":null}"#) == #"{"value":{"0":0}}"#)
        #expect(try call("tally(_:tags:ranks:note:)", #"{"counts":{"x":1},"tags":[],"ranks":[]}"#)
            == #"{"error":"expected an integer dictionary key (key 'counts')"}"#)
        #expect(try call("tally(_:tags:ranks:note:)", #"{"counts":{},"tags":[],"ranks":["sun"]}"#)
            == #"{"error":"expected keys and values in turn (key 'ranks')"}"#)
        // A set is written in the order of its elements' JSON, whatever its storage order.
        #expect(try call("picks(_:)", #"{"ids":["rose","aster","rose"]}"#) == #"{"value":["aster","basil","rose"]}"#)
        // Ranges are Codable as [lowerBound, upperBound].
        #expect(try call("widened(_:)", #"{"range":[2,5]}"#) == #"{"value":[1,7]}"#)
    }

    static let inputs = """
        {"bed":{"byTag":[[{"case":"sun"},3]],"counts":{"10":"ten","2":"two"},"drift":{"dx":1,"dy":-2},\
        "frame":{"origin":{"x":10,"y":0},"size":{"height":50,"width":100}},"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"},\
        "gardener":{"name":"Ada"},"plant":{"id":"rose","initial":"R","name":"Rose","note":"thorny",\
        "position":{"x":12.5,"y":20},"subtitle":null,"tags":[{"case":"sun"},{"case":"shade"}]},"size":{"height":30,"width":40},\
        "window":{"lowerBound":2,"upperBound":5}}
        """

    @Test func aViewReadsThemFromTheHostsInputsAndItsStateComesBackInCodableShapes() throws {
        let run = try guest.runView("PlantCard", inputs: try #require(MessagePackValue.parseJSON(Array(Self.inputs.utf8))),
                                      events: [ViewEventRequest(parsing: "action_0")])
        // The state in JSONEncoder's shapes: CoreGraphics values as arrays, the set and the
        // Int-keyed dictionary as the host sends them, the Tag-keyed one flat with raw-value keys.
        #expect(run.events.map(\.state) == [
            #"{"area":[[1,2],[3,4]],"byTag":["shade",2],"grade":"B","marker":[3,4],"notes":{"7":"seven"},"picked":["rose"]}"#,
        ])
        // The render after the event read that state back, merged over the inputs.
        #expect(ViewOutline.render(run.render.tree.root) == """
            vstack
              text("Rose R 2-5")
              text("no subtitle")
              text("by Ada")
              text("thorny")
              text("two 3 true")
              shape(rectangle) .frame(width: 40, height: 50) .offset(x: 40, y: 30) .position(x: 12.5, y: 20)
              text("60 -2 3 6")
              text("rose B seven 2")
              button(actionID: "action_0")
                label:
                  text("Pick")
            """)
        // Before the event: the declared defaults, and the nested optional's inner nil.
        let first = try guest.runView("PlantCard", inputs: try #require(MessagePackValue.parseJSON(Array(
            Self.inputs.replacingOccurrences(of: #""note":"thorny""#, with: #""note":null"#)
                .replacingOccurrences(of: #""gardener":{"name":"Ada"},"#, with: "").utf8))), events: [])
        let outline = ViewOutline.render(first.render.tree.root)
        #expect(outline.contains(#"text("60 -2 0 0")"#) && outline.contains(#"text(" A - 0")"#), "\(outline)")
        #expect(!outline.contains("thorny") && !outline.contains("by "), "\(outline)")
    }

    @Test func malformedValuesAreDecodeErrorsNamingTheirKey() throws {
        for (broken, reason) in [
            (Self.inputs.replacingOccurrences(of: #""initial":"R""#, with: #""initial":"Ro""#), "expected a one-character String (key 'initial')"),
            (Self.inputs.replacingOccurrences(of: #""dx":1,"#, with: ""), "expected a number (key 'dx')"),
            (Self.inputs.replacingOccurrences(of: #""size":{"height":30,"width":40}"#, with: #""size":[40]"#),
             "expected an object of two stored properties or a two-element array (key 'size')"),
            (Self.inputs.replacingOccurrences(of: #""window":{"lowerBound":2,"upperBound":5}"#, with: #""window":[5,2]"#),
             "a range's lowerBound exceeds its upperBound (key 'window')"),
        ] {
            let output = try #require(try guest.callPacked("view_body__PlantCard", input: Array(broken.utf8)).output)
            #expect(String(decoding: output, as: UTF8.self).contains(reason), "\(String(decoding: output, as: UTF8.self))")
        }
    }
}
