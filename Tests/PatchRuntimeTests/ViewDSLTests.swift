import Foundation
@testable import PatchRuntime
import Testing

/// The guest view DSL (templates/guest/ViewDSL.swift) compiled with Embedded Swift: each node and
/// modifier it supports writes the IR of sdk-contract §5.6 exactly (the expected roots are written
/// from the contract's tables, not from the DSL's types), every emission passes the schema
/// validator `run --view` uses, and a Button action dispatches and re-renders as on device.
@Suite(.enabled(if: GuestBuilder.canCompile, "needs the Swift toolchain's swiftc/clang/wasm-ld (required under CI=true)"))
struct ViewDSLTests {
    let guest: RuntimeSession

    init() throws {
        guest = try session(try GuestBuilder.viewDSLGuest(
            "view_dsl_guest.swift", exports: ["patch_view_manifest", "view_body__Sample", "view_body__Counter", "dispatch__Counter"]))
    }

    static let divider = #"{"kind":{"divider":{}},"modifiers":[]}"#
    static func dividerWith(_ modifier: String) -> String { #"{"kind":{"divider":{}},"modifiers":[\#(modifier)]}"# }
    static func leaf(_ kind: String) -> String { #"{"kind":\#(kind),"modifiers":[]}"# }
    static let red = #"{"named":{"_0":"red"}}"#

    /// Sample `which` → the root node the contract's tables give for it.
    static let goldens: [(Int, String)] = [
        (0, leaf(#"{"text":{"_0":"Hello, Ada! \"quoted\""}}"#)),
        (1, leaf(#"{"text":{"_0":"line\nbreak"}}"#)),
        (2, leaf(#"{"image":{"systemName":"star.fill"}}"#)),
        (3, leaf(#"{"bundleImage":{"name":"Logo"}}"#)),
        (4, leaf(#"{"spacer":{"minLength":null}}"#)),
        (5, leaf(#"{"spacer":{"minLength":12}}"#)),
        (6, divider),
        (7, leaf(#"{"color":{"_0":{"named":{"_0":"blue"}}}}"#)),
        (8, leaf(#"{"color":{"_0":{"rgba":{"_0":{"r":1,"g":0.5,"b":0,"a":1}}}}}"#)),
        (9, leaf(#"{"vstack":{"alignment":null,"spacing":null,"children":[\#(divider)]}}"#)),
        (10, leaf(#"{"vstack":{"alignment":"leading","spacing":8,"children":[\#(divider),{"kind":{"spacer":{"minLength":null}},"modifiers":[]}]}}"#)),
        (11, leaf(#"{"hstack":{"alignment":"firstTextBaseline","spacing":2.5,"children":[\#(divider)]}}"#)),
        (12, leaf(#"{"zstack":{"alignment":"bottomTrailing","children":[\#(divider)]}}"#)),
        (13, leaf(#"{"group":{"children":[\#(divider),\#(divider)]}}"#)),
        (14, leaf(#"{"forEach":{"children":[{"kind":{"text":{"_0":"row 1"}},"modifiers":[]},{"kind":{"text":{"_0":"row 2"}},"modifiers":[]}]}}"#)),
        (15, leaf(#"{"button":{"actionID":"action_0","role":null,"label":[{"kind":{"text":{"_0":"Go"}},"modifiers":[]}]}}"#)),
        (16, dividerWith(#"{"padding":{"_0":{"top":16,"leading":16,"bottom":16,"trailing":16}}}"#)),
        (17, dividerWith(#"{"padding":{"_0":{"top":0,"leading":4,"bottom":0,"trailing":4}}}"#)),
        (18, dividerWith(#"{"padding":{"_0":{"top":3,"leading":3,"bottom":3,"trailing":3}}}"#)),
        (19, dividerWith(#"{"font":{"_0":{"style":"title","size":null,"weight":null,"design":null}}}"#)),
        (20, dividerWith(#"{"font":{"_0":{"style":null,"size":14,"weight":"semibold","design":"rounded"}}}"#)),
        (21, dividerWith(#"{"bold":{}}"#)),
        (22, dividerWith(#"{"italic":{}}"#)),
        (23, dividerWith(#"{"foregroundColor":{"_0":\#(red)}}"#)),
        (24, dividerWith(#"{"foregroundColor":{"_0":{"named":{"_0":"gray"}}}}"#)),
        (25, dividerWith(#"{"background":{"_0":{"rgba":{"_0":{"r":0.5,"g":0.5,"b":0.5,"a":0.25}}}}}"#)),
        (26, dividerWith(#"{"frame":{"width":10,"height":20,"alignment":"top"}}"#)),
        (27, dividerWith(#"{"flexFrame":{"minWidth":null,"idealWidth":null,"maxWidth":{"infinity":{}},"minHeight":null,"idealHeight":null,"maxHeight":null,"alignment":"leading"}}"#)),
        (28, dividerWith(#"{"opacity":{"_0":0.5}}"#)),
        (29, dividerWith(#"{"cornerRadius":{"_0":8}}"#)),
        (30, dividerWith(#"{"lineLimit":{"_0":2}}"#)),
        (31, dividerWith(#"{"lineLimit":{"_0":null}}"#)),
        (32, dividerWith(#"{"multilineTextAlignment":{"_0":"center"}}"#)),
        (33, dividerWith(#"{"navigationTitle":{"_0":"Title"}}"#)),
        (34, dividerWith(#"{"tint":{"_0":{"named":{"_0":"green"}}}}"#)),
        (35, dividerWith(#"{"disabled":{"_0":true}}"#)),
        (36, dividerWith(#"{"fixedSize":{}}"#)),
        (37, dividerWith(#"{"frame":{"width":"inf","height":null,"alignment":null}}"#)),
        // An `if` that is false writes nothing; modifiers apply in source order.
        (38, #"{"kind":{"text":{"_0":"a"}},"modifiers":[{"bold":{}},{"opacity":{"_0":0.5}}]}"#),
        (39, leaf(#"{"shape":{"_0":{"rectangle":{}}}}"#)),
        (40, #"{"kind":{"shape":{"_0":{"circle":{}}}},"modifiers":[{"fill":{"_0":{"color":{"_0":\#(red)}},"eoFill":false}}]}"#),
        (41, leaf(#"{"shape":{"_0":{"capsule":{}}}}"#)),
        (42, leaf(#"{"shape":{"_0":{"ellipse":{}}}}"#)),
        (43, leaf(#"{"shape":{"_0":{"roundedRectangle":{"cornerRadius":12}}}}"#)),
        (44, #"{"kind":{"text":{"_0":"clipped"}},"modifiers":[{"clipShape":{"_0":{"roundedRectangle":{"cornerRadius":4.5}}}}]}"#),
        (45, #"{"kind":{"color":{"_0":\#(red)}},"modifiers":[{"clipShape":{"_0":{"circle":{}}}}]}"#),
        // A LocalizedStringKey is looked up and its Markdown rendered by the host; an interpolated
        // one is the formatted text, not looked up (its native key is the `%@` format).
        (46, leaf(#"{"styledText":{"_0":"Welcome *back*","verbatim":false,"markdown":true,"localized":true}}"#)),
        (47, leaf(#"{"styledText":{"_0":"Hi Ada","verbatim":false,"markdown":true,"localized":false}}"#)),
        (48, leaf(#"{"styledText":{"_0":"Ada","verbatim":false,"markdown":true,"localized":true}}"#)),
        (49, leaf(#"{"styledText":{"_0":"Greeting","verbatim":false,"markdown":true,"localized":true}}"#)),
        // SwiftUI's static shape members where a shape is expected.
        (50, #"{"kind":{"text":{"_0":"pill"}},"modifiers":[{"backgroundStyle":{"_0":{"material":{"_0":"thin"}},"in":{"capsule":{}}}},{"clipShape":{"_0":{"circle":{}}}}]}"#),
        (51, dividerWith(#"{"clipShape":{"_0":{"roundedRectangle":{"cornerRadius":6}}}},{"clipShape":{"_0":{"rectangle":{}}}},{"clipShape":{"_0":{"ellipse":{}}}}"#)),
        // The container's shape (backyard-birds' grid items, food-truck's widget), a color multiply.
        (52, leaf(#"{"shape":{"_0":{"containerRelative":{}}}}"#)),
        (53, dividerWith(#"{"containerShape":{"_0":{"roundedRectangle":{"cornerRadius":20}}}},{"clipShape":{"_0":{"containerRelative":{}}}}"#)),
        (54, dividerWith(#"{"colorMultiply":{"_0":{"rgba":{"_0":{"r":0.5,"g":0.5,"b":0.5,"a":1}}}}}"#)),
        // The IR names one edge or all/horizontal/vertical per modifier: another set goes edge by edge.
        (55, dividerWith(#"{"contentMargins":{"edges":"all","length":20,"placement":"scrollContent"}}"#)),
        (56, dividerWith(#"{"contentMargins":{"edges":"top","length":10,"placement":"automatic"}},"#
            + #"{"contentMargins":{"edges":"leading","length":10,"placement":"automatic"}},"#
            + #"{"contentMargins":{"edges":"trailing","length":10,"placement":"automatic"}},"#
            + #"{"ignoresSafeArea":{"regions":"all","edges":"top"}},{"ignoresSafeArea":{"regions":"all","edges":"leading"}}"#)),
        // A color where a shape style is expected (food-truck's `.indigo`).
        (57, dividerWith(#"{"backgroundStyle":{"_0":{"color":{"_0":{"named":{"_0":"indigo"}}}},"in":{"capsule":{}}}}"#)),
        // StrokeStyle field for field (enchanted's dashed drop zone); without a style, the foreground.
        (58, #"{"kind":{"shape":{"_0":{"circle":{}}}},"modifiers":[{"strokeBorder":{"_0":{"semantic":{"_0":"foreground"}},"#
            + #""_1":{"lineWidth":2,"cap":"butt","join":"round","miterLimit":10,"dash":[10],"dashPhase":0}}}]}"#),
        (59, #"{"kind":{"shape":{"_0":{"capsule":{}}}},"modifiers":[{"stroke":{"_0":{"color":{"_0":{"named":{"_0":"indigo"}}}},"#
            + #""_1":{"lineWidth":1.5,"cap":"round","join":"miter","miterLimit":4,"dash":[2,3],"dashPhase":1}}}]}"#),
        (60, #"{"kind":{"shape":{"_0":{"rectangle":{}}}},"modifiers":[{"stroke":{"_0":{"semantic":{"_0":"foreground"}},"#
            + #""_1":{"lineWidth":3,"cap":"butt","join":"miter","miterLimit":10,"dash":[],"dashPhase":0}}}]}"#),
        // A project's Shape is a slot the thunk draws as a view: its fill is its foreground style.
        (61, #"{"kind":{"opaque":{"id":"op_segment","label":"Segment"}},"modifiers":[{"foregroundStyle":{"_0":[{"semantic":{"_0":"tint"}}]}}]}"#),
        // A corner style written out: the one ShapeKind that carries it.
        (62, #"{"kind":{"shape":{"_0":{"unevenRoundedRectangle":{"topLeading":15,"topTrailing":15,"bottomLeading":15,"#
            + #""bottomTrailing":15,"style":"continuous"}}}},"modifiers":[{"fill":{"_0":{"material":{"_0":"ultraThin"}},"eoFill":false}}]}"#),
        (63, #"{"kind":{"shape":{"_0":{"capsule":{}}}},"modifiers":[{"stroke":{"_0":{"semantic":{"_0":"separator"}},"#
            + #""_1":{"lineWidth":0.5,"cap":"butt","join":"miter","miterLimit":10,"dash":[],"dashPhase":0}}}]}"#),
        (64, leaf(#"{"bundleImage":{"name":"Logo"}}"#)),
        // Insets side by side (ACHNBrowserUI's badges).
        (65, dividerWith(#"{"padding":{"_0":{"top":8,"leading":12,"bottom":8,"trailing":12}}}"#)),
        (66, dividerWith(#"{"dynamicTypeSize":{"_0":"xxxLarge"}}"#)),
        // Text's own modifiers (an app's `extension Text { func rowTitle() -> Text }`) write what the
        // View modifiers of their names write; an inactive one writes nothing.
        (70, #"{"kind":{"text":{"_0":"a"}},"modifiers":[{"font":{"_0":{"style":"title","size":null,"weight":null,"design":null}}},"#
            + #"{"fontWeight":{"_0":"bold"}},{"foregroundColor":{"_0":\#(red)}}]}"#),
        (71, #"{"kind":{"text":{"_0":"b"}},"modifiers":[{"italic":{}},{"monospacedDigit":{}},{"opacity":{"_0":0.5}}]}"#),
        // ACHNBrowserUI's digit font and iOS 13 mask.
        (73, #"{"kind":{"text":{"_0":"9"}},"modifiers":[{"font":{"_0":{"style":null,"size":12,"weight":"semibold","design":null}}},{"monospacedDigit":{}}]}"#),
        (74, dividerWith(#"{"mask":{"alignment":"center","content":[\#(leaf(#"{"shape":{"_0":{"roundedRectangle":{"cornerRadius":10}}}}"#))]}}"#)),
    ]

    @Test func everyNodeAndModifierWritesTheContractsIR() throws {
        for (which, root) in Self.goldens {
            let output = try #require(try guest.callPacked("view_body__Sample", input: Array(#"{"which":\#(which)}"#.utf8)).output)
            let text = String(decoding: output, as: UTF8.self)
            #expect(text.hasPrefix(#"{"root":\#(root),"coverage":"#), "sample \(which): \(text)")
            var validator = ViewTreeValidator(export: "view_body__Sample", limits: ViewLimits())
            let document = try validator.parse(output)
            try validator.validateDocument(document, as: "BodyEmission")
        }
    }

    @Test func coverageCountsNodesAndModifiersAndTheSchemaIsTheLowestTheTreeNeeds() throws {
        let output = try #require(try guest.callPacked("view_body__Sample", input: Array(#"{"which":10}"#.utf8)).output)
        #expect(String(decoding: output, as: UTF8.self).hasSuffix(
            #","coverage":{"totalNodes":3,"opaqueNodes":0,"totalModifiers":0,"opaqueModifiers":0},"schemaVersion":1}"#))
        // Shapes, shape styles and styledText came with schema 2 (sdk-contract §5.5).
        for which in [39, 40, 44, 27, 46] {
            let shaped = try #require(try guest.callPacked("view_body__Sample", input: Array(#"{"which":\#(which)}"#.utf8)).output)
            #expect(String(decoding: shaped, as: UTF8.self).hasSuffix(#""schemaVersion":2}"#), "sample \(which)")
        }
        // `contentMargins` is a v5 modifier, and each edge written is a modifier of the coverage.
        let margins = try #require(try guest.callPacked("view_body__Sample", input: Array(#"{"which":56}"#.utf8)).output)
        #expect(String(decoding: margins, as: UTF8.self).hasSuffix(
            #","coverage":{"totalNodes":1,"opaqueNodes":0,"totalModifiers":5,"opaqueModifiers":0},"schemaVersion":5}"#))
        // The Text's modifiers count, and raise the schema (`fontWeight` and `monospacedDigit` are v2).
        // A digit font is a font and a monospacedDigit modifier.
        for (which, modifiers) in [(70, 3), (71, 3), (73, 2)] {
            let styled = try #require(try guest.callPacked("view_body__Sample", input: Array(#"{"which":\#(which)}"#.utf8)).output)
            #expect(String(decoding: styled, as: UTF8.self).hasSuffix(
                #","coverage":{"totalNodes":1,"opaqueNodes":0,"totalModifiers":\#(modifiers),"opaqueModifiers":0},"schemaVersion":2}"#), "sample \(which)")
        }
        // `containerShape` and `colorMultiply` are v6 modifiers.
        for which in [53, 54] {
            let effect = try #require(try guest.callPacked("view_body__Sample", input: Array(#"{"which":\#(which)}"#.utf8)).output)
            #expect(String(decoding: effect, as: UTF8.self).hasSuffix(#""schemaVersion":6}"#), "sample \(which)")
        }
    }

    @Test func whatTheIRAndTheBridgesCannotExpressDoesNotCompileAndSaysWhy() throws {
        // build quotes the guest compiler's reason as the view's detail.
        let failure = #expect(throws: GuestBuilder.BuildFailure.self) {
            try GuestBuilder.viewDSLGuest("view_dsl_native_only_styles_guest.swift", exports: [])
        }
        let message = failure?.description ?? ""
        for reason in [
            "'gradient' is unavailable: Color.gradient is a gradient SwiftUI derives from the color, with stops it does not publish",
            "'background' is unavailable: the background shape style (and its .secondary, .tertiary …) is none of IRShapeStyle's cases",
            "'fill' is unavailable: the fill shape style (and its .secondary, .tertiary …) is none of IRShapeStyle's cases",
            "'NSLocalizedString(_:tableName:bundle:value:comment:)' is unavailable: NSLocalizedString looks the key up in the app's strings tables",
            "'module' is unavailable: a Swift package's resource bundle is not the app's",
            "'TimeFormatStyle' is unavailable: the SDK has no bridge formatting a Duration in the device's locale",
            "'dynamicTypeSize' is unavailable: a range of text sizes clamps the user's size, and the IR's dynamicTypeSize",
        ] {
            #expect(message.contains(reason), "\(reason)\n\(message)")
        }
    }

    @Test func buttonsDispatchTheirActionsAndTheViewReRenders() throws {
        let events = ["action_0", "action_0", "__noop__"].map(ViewEventRequest.init(parsing:))
        let run = try guest.runView("Counter", inputs: try #require(MessagePackValue.parseJSON(Array(#"{"title":"Hits"}"#.utf8))), events: events)
        #expect(run.events.map(\.state) == [#"{"count":1}"#, #"{"count":2}"#, #"{"count":2}"#])
        #expect(ViewOutline.render(run.render.tree.root) == """
            vstack(spacing: 4)
              text("Hits: 2")
              text("Many!") .foregroundColor(named("red"))
              button(actionID: "action_0")
                label:
                  text("+1")
              button(actionID: "action_1")
                label:
                  image(systemName: "arrow.counterclockwise")
            """)
        let reset = try guest.runView("Counter", inputs: .map([]), events: ["action_0", "action_0", "action_1"].map(ViewEventRequest.init(parsing:)))
        #expect(reset.events.last?.state == #"{"count":0}"#)
        #expect(ViewOutline.render(reset.render.tree.root).contains(#"text("Taps: 0")"#))
    }
}
