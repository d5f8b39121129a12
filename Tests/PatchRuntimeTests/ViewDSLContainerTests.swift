import Foundation
@testable import PatchRuntime
import Testing

/// The containers, navigation nodes and modifiers of the guest view DSL's Lists, Navigation and
/// Styling parts, compiled with Embedded Swift: each writes the IR of sdk-contract §5.6.4/§5.6.5
/// exactly (expected roots written from the contract's tables), every emission passes the schema
/// validator `run --view` uses and states the lowest schema its tree needs (§5.5), and a settings
/// screen written the way real apps write theirs lowers unchanged and dispatches.
@Suite(.enabled(if: GuestBuilder.canCompile, "needs the Swift toolchain's swiftc/clang/wasm-ld (required under CI=true)"))
struct ViewDSLContainerTests {
    let guest: RuntimeSession

    init() throws {
        guest = try session(try GuestBuilder.viewDSLGuest(
            "view_dsl_containers_guest.swift",
            exports: ["patch_view_manifest", "view_body__ContainerSample", "view_body__SettingsScreen", "dispatch__SettingsScreen"]))
    }

    static let divider = ViewDSLTests.divider
    static func dividerWith(_ modifier: String) -> String { ViewDSLTests.dividerWith(modifier) }
    static func leaf(_ kind: String) -> String { ViewDSLTests.leaf(kind) }
    static func text(_ content: String) -> String { leaf(#"{"text":{"_0":"\#(content)"}}"#) }
    static let dividers = "[\(divider)]"

    /// ContainerSample `which` → the root node and the schema version the contract gives for it.
    static let goldens: [(Int, String, Int)] = [
        (0, leaf(#"{"list":{"children":\#(dividers)}}"#), 2),
        (1, leaf(#"{"list":{"children":[\#(text("row 1")),\#(text("row 2"))]}}"#), 2),
        (2, leaf(#"{"section":{"header":[\#(text("H"))],"footer":[\#(text("F"))],"content":\#(dividers)}}"#), 2),
        (3, leaf(#"{"section":{"header":[\#(text("Title"))],"footer":[],"content":\#(dividers)}}"#), 2),
        (4, leaf(#"{"section":{"header":[],"footer":[],"content":\#(dividers)}}"#), 2),
        (5, leaf(#"{"section":{"header":[\#(text("Old"))],"footer":[],"content":\#(dividers)}}"#), 2),
        (6, leaf(#"{"form":{"children":\#(dividers)}}"#), 2),
        (7, leaf(#"{"scrollView":{"axis":"vertical","children":\#(dividers)}}"#), 2),
        // showsIndicators: false is the scroll view's scrollIndicators(hidden) (schema 5), before
        // the modifiers the body applies.
        (8, #"{"kind":{"scrollView":{"axis":"horizontal","children":\#(dividers)}},"modifiers":[{"scrollIndicators":{"_0":"hidden","axes":"horizontal"}},{"padding":{"_0":{"top":2,"leading":2,"bottom":2,"trailing":2}}}]}"#, 5),
        (9, leaf(#"{"lazyVStack":{"alignment":"leading","spacing":4,"children":\#(dividers)}}"#), 2),
        (10, leaf(#"{"lazyHStack":{"alignment":null,"spacing":null,"children":\#(dividers)}}"#), 2),
        (11, leaf(#"{"lazyVGrid":{"columns":[{"size":{"flexible":{"min":10,"max":{"infinity":{}}}},"spacing":null,"alignment":null},{"size":{"fixed":{"_0":40}},"spacing":2,"alignment":"top"}],"spacing":null,"children":\#(dividers)}}"#), 2),
        (12, leaf(#"{"lazyHGrid":{"rows":[{"size":{"adaptive":{"min":80,"max":{"points":{"_0":120}}}},"spacing":null,"alignment":null}],"spacing":6,"children":\#(dividers)}}"#), 2),
        (13, leaf(#"{"grid":{"alignment":null,"horizontalSpacing":3,"verticalSpacing":null,"children":[\#(leaf(#"{"gridRow":{"alignment":"top","children":\#(dividers)}}"#))]}}"#), 2),
        (14, leaf(#"{"navigationStack":{"children":\#(dividers)}}"#), 2),
        (15, leaf(#"{"navigationStack":{"children":\#(dividers)}}"#), 2),
        (16, leaf(#"{"navigationLink":{"destination":[\#(text("Detail"))],"label":[\#(text("Open"))]}}"#), 3),
        (17, leaf(#"{"navigationLink":{"destination":[\#(text("Detail"))],"label":[\#(text("Open"))]}}"#), 3),
        (18, leaf(#"{"label":{"title":[\#(text("Inbox"))],"icon":[\#(leaf(#"{"image":{"systemName":"tray"}}"#))]}}"#), 2),
        (19, leaf(#"{"label":{"title":[\#(text("Custom"))],"icon":[\#(leaf(#"{"shape":{"_0":{"circle":{}}}}"#))]}}"#), 2),
        (20, leaf(#"{"progressView":{}}"#), 2),
        (21, leaf(#"{"determinateProgress":{"value":0.25,"total":1,"label":[]}}"#), 2),
        (22, leaf(#"{"determinateProgress":{"value":3,"total":4,"label":[\#(text("Upload"))]}}"#), 2),
        (23, leaf(#"{"tabView":{"tabs":[{"tag":"0","tabItem":[\#(leaf(#"{"label":{"title":[\#(text("First"))],"icon":[\#(leaf(#"{"image":{"systemName":"1.circle"}}"#))]}}"#))],"content":[\#(text("One"))]},{"tag":"1","tabItem":[],"content":[\#(text("Two"))]}],"style":"automatic"}}"#), 2),
        (24, leaf(#"{"disclosureGroup":{"label":[\#(text("More"))],"children":\#(dividers)}}"#), 2),
        (25, leaf(#"{"group":{"children":[]}}"#), 1),
        (26, dividerWith(#"{"buttonStyle":{"_0":"borderedProminent"}}"#), 2),
        (27, dividerWith(#"{"buttonStyle":{"_0":"plain"}}"#), 2),
        (28, dividerWith(#"{"listStyle":{"_0":"insetGrouped"}}"#), 2),
        (29, dividerWith(#"{"labelStyle":{"_0":"iconOnly"}}"#), 2),
        (30, dividerWith(#"{"controlSize":{"_0":"small"}}"#), 2),
        (31, dividerWith(#"{"fontWeight":{"_0":"semibold"}}"#), 2),
        (32, dividerWith(#"{"overlayContent":{"alignment":"center","content":[\#(text("badge"))]}}"#), 2),
        (33, dividerWith(#"{"backgroundContent":{"alignment":"leading","content":[\#(leaf(#"{"color":{"_0":{"named":{"_0":"red"}}}}"#))]}}"#), 2),
        (34, dividerWith(#"{"listRowBackground":{"_0":[\#(leaf(#"{"color":{"_0":{"named":{"_0":"clear"}}}}"#))]}}"#), 3),
        (35, dividerWith(#"{"aspectRatio":{"ratio":1.5,"_1":"fill"}}"#), 2),
        (36, dividerWith(#"{"aspectRatio":{"ratio":null,"_1":"fit"}}"#), 2),
        (37, dividerWith(#"{"navigationBarTitleDisplayMode":{"_0":"inline"}}"#), 3),
        (38, dividerWith(#"{"navigationBarTitleDisplayMode":{"_0":"large"}}"#), 3),
        (39, dividerWith(#"{"navigationBarTitle":{"_0":"Legacy","displayMode":"automatic"}}"#), 3),
        (40, dividerWith(#"{"offset":{"x":3,"y":-2}}"#), 2),
        (41, dividerWith(#"{"listRowInsets":{"_0":{"top":1,"leading":2,"bottom":3,"trailing":4}}}"#), 3),
        (42, dividerWith(#"{"shadow":{"color":null,"radius":4,"x":0,"y":2}}"#), 2),
        (43, dividerWith(#"{"shadow":{"color":{"named":{"_0":"black"}},"radius":1,"x":0,"y":0}}"#), 2),
        (44, dividerWith(#"{"clipped":{"antialiased":false}}"#), 2),
        (45, dividerWith(#"{"rotationEffect":{"degrees":45,"anchor":{"center":{}}}}"#), 2),
        (46, dividerWith(#"{"scaleEffect":{"x":1.5,"y":1.5,"anchor":{"topLeading":{}}}}"#), 2),
        (47, dividerWith(#"{"border":{"_0":{"color":{"_0":{"named":{"_0":"gray"}}}},"width":2}}"#), 2),
        (48, dividerWith(#"{"textCase":{"_0":"uppercase"}}"#), 2),
        (49, dividerWith(#"{"imageScale":{"_0":"large"}}"#), 2),
        (50, dividerWith(#"{"symbolRenderingMode":{"_0":"hierarchical"}}"#), 2),
        (51, dividerWith(#"{"monospacedDigit":{}}"#), 2),
        (52, dividerWith(#"{"mask":{"alignment":"center","content":[\#(leaf(#"{"shape":{"_0":{"capsule":{}}}}"#))]}}"#), 2),
        (53, dividerWith(#"{"buttonBorderShape":{"_0":"capsule"}}"#), 2),
        (54, dividerWith(#"{"navigationViewStyle":{"_0":"stack"}}"#), 3),
        (55, dividerWith(#"{"navigationBarBackButtonHidden":{"_0":true}}"#), 3),
        (56, dividerWith(#"{"accessibilityLabel":{"_0":"Close"}}"#), 3),
        (57, dividerWith(#"{"accessibilityHidden":{"_0":true}}"#), 3),
        (58, dividerWith(#"{"redacted":{"reason":"placeholder"}}"#), 2),
        (59, dividerWith(#"{"minimumScaleFactor":{"_0":0.5}}"#), 2),
        (60, dividerWith(#"{"zIndex":{"_0":1}}"#), 2),
        (61, dividerWith(#"{"layoutPriority":{"_0":2}}"#), 2),
        (62, dividerWith(#"{"fontDesign":{"_0":"rounded"}}"#), 2),
        (63, dividerWith(#"{"blur":{"radius":3,"opaque":false}}"#), 2),
        (64, dividerWith(#"{"textCase":{"_0":null}}"#), 2),
        (65, dividerWith(#"{"scaleEffect":{"x":2,"y":1,"anchor":{"xy":{"x":0.5,"y":1}}}}"#), 2),
        (67, dividerWith(#"{"foregroundStyle":{"_0":[{"hierarchical":{"_0":2}}]}}"#), 2),
        (68, dividerWith(#"{"foregroundStyle":{"_0":[{"semantic":{"_0":"tint"}},{"color":{"_0":{"named":{"_0":"red"}}}}]}}"#), 2),
        (69, dividerWith(#"{"backgroundStyle":{"_0":{"material":{"_0":"ultraThin"}},"in":{"roundedRectangle":{"cornerRadius":8}}}}"#), 2),
        (70, dividerWith(#"{"backgroundStyle":{"_0":{"hierarchical":{"_0":3}},"in":null}}"#), 2),
        (71, #"{"kind":{"shape":{"_0":{"circle":{}}}},"modifiers":[{"fill":{"_0":{"material":{"_0":"thin"}},"eoFill":false}}]}"#, 2),
        (72, #"{"kind":{"shape":{"_0":{"capsule":{}}}},"modifiers":[{"stroke":{"_0":{"color":{"_0":{"named":{"_0":"blue"}}}},"_1":{"lineWidth":2,"cap":"butt","join":"miter","miterLimit":10,"dash":[],"dashPhase":0}}}]}"#, 2),
        (73, #"{"kind":{"shape":{"_0":{"roundedRectangle":{"cornerRadius":4}}}},"modifiers":[{"strokeBorder":{"_0":{"semantic":{"_0":"tint"}},"_1":{"lineWidth":1,"cap":"butt","join":"miter","miterLimit":10,"dash":[],"dashPhase":0}}}]}"#, 2),
        (74, dividerWith(#"{"ignoresSafeArea":{"regions":"all","edges":"all"}}"#), 2),
        (75, dividerWith(#"{"ignoresSafeArea":{"regions":"keyboard","edges":"bottom"}}"#), 2),
        // An edge set without an IR name: one modifier per edge.
        (76, dividerWith(#"{"ignoresSafeArea":{"regions":"all","edges":"top"}},{"ignoresSafeArea":{"regions":"all","edges":"leading"}}"#), 2),
        (77, dividerWith(#"{"allowsHitTesting":{"_0":false}}"#), 3),
        (78, dividerWith(#"{"scrollContentBackground":{"_0":"hidden"}}"#), 3),
        (79, dividerWith(#"{"scrollIndicators":{"_0":"never","axes":"all"}}"#), 5),
        (80, dividerWith(#"{"scrollIndicators":{"_0":"hidden","axes":"vertical"}}"#), 5),
        (81, dividerWith(#"{"listRowSeparator":{"_0":"hidden","edges":"top"}}"#), 3),
        (82, dividerWith(#"{"symbolVariant":{"_0":"fill"}}"#), 2),
        (83, dividerWith(#"{"hidden":{}}"#), 6),
        (84, dividerWith(#"{"labelsHidden":{}}"#), 6),
        (85, dividerWith(#"{"scrollDisabled":{"_0":true}}"#), 5),
        (86, dividerWith(#"{"scrollClipDisabled":{"_0":true}}"#), 3),
        // The id as a closure, what a key path (which Embedded Swift cannot compile) is rewritten to.
        (89, leaf(#"{"list":{"children":[\#(text("a")),\#(text("b"))]}}"#), 2),
        (90, leaf(#"{"labeledContent":{"label":[\#(text("Version"))],"content":[\#(text("1.2"))]}}"#), 2),
        (91, leaf(#"{"labeledContent":{"label":[\#(text("Status"))],"content":[\#(leaf(#"{"image":{"systemName":"checkmark"}}"#))]}}"#), 2),
        (92, leaf(#"{"labeledContent":{"label":[\#(text("Custom"))],"content":\#(dividers)}}"#), 2),
        // A Button in a menu is numbered like any other.
        (93, leaf(#"{"menu":{"label":[\#(text("More"))],"items":[\#(leaf(#"{"button":{"actionID":"action_0","role":null,"label":[\#(text("Share"))]}}"#))]}}"#), 2),
        (94, leaf(#"{"menu":{"label":[\#(leaf(#"{"label":{"title":[\#(text("Sort"))],"icon":[\#(leaf(#"{"image":{"systemName":"arrow.up.arrow.down"}}"#))]}}"#))],"items":\#(dividers)}}"#), 2),
        (95, leaf(#"{"menu":{"label":[\#(leaf(#"{"image":{"systemName":"ellipsis"}}"#))],"items":\#(dividers)}}"#), 2),
        (96, leaf(#"{"gauge":{"data":{"value":3,"min":0,"max":10},"label":[\#(text("Level"))]}}"#), 2),
        // colors: are evenly spaced stops.
        (97, dividerWith(#"{"foregroundStyle":{"_0":[{"linearGradient":{"_0":{"stops":[{"color":{"named":{"_0":"pink"}},"location":0},{"color":{"named":{"_0":"red"}},"location":0.5},{"color":{"named":{"_0":"clear"}},"location":1}]},"startPoint":{"top":{}},"endPoint":{"bottom":{}}}}]}}"#), 2),
        // A gradient as a view is a rectangle filled with it.
        (98, #"{"kind":{"shape":{"_0":{"rectangle":{}}}},"modifiers":[{"fill":{"_0":{"linearGradient":{"_0":{"stops":[{"color":{"named":{"_0":"clear"}},"location":0},{"color":{"named":{"_0":"black"}},"location":0.6}]},"startPoint":{"top":{}},"endPoint":{"bottom":{}}}},"eoFill":false}}]}"#, 2),
        (87, dividerWith(#"{"font":{"_0":{"style":"subheadline","size":null,"weight":"bold","design":"rounded"}}}"#), 1),
        // A ForEach of tabs is one tab (the IR unrolls it into one forEach node); the rows' tabItems
        // were recorded on the ForEach's level and label nothing.
        (88, leaf(#"{"tabView":{"tabs":[{"tag":"0","tabItem":[],"content":[\#(leaf(#"{"forEach":{"children":[\#(text("Tab 1")),\#(text("Tab 2"))]}}"#))]}],"style":"automatic"}}"#), 2),
    ]

    /// The emission of `export` for `inputs`, checked by the validator `run --view` uses.
    func validatedEmission(_ export: String, _ inputs: String) throws -> String {
        let output = try #require(try guest.callPacked(export, input: Array(inputs.utf8)).output)
        var validator = ViewTreeValidator(export: export, limits: ViewLimits())
        try validator.validateDocument(try validator.parse(output), as: "BodyEmission")
        return String(decoding: output, as: UTF8.self)
    }

    @Test func everyContainerAndModifierWritesTheContractsIRAtTheLowestSchema() throws {
        for (which, root, schema) in Self.goldens {
            let text = try validatedEmission("view_body__ContainerSample", #"{"which":\#(which)}"#)
            #expect(text.hasPrefix(#"{"root":\#(root),"coverage":"#), "sample \(which): \(text)")
            #expect(text.hasSuffix(#","schemaVersion":\#(schema)}"#), "sample \(which): \(text)")
        }
    }

    @Test func coverageCountsTheNodesOfModifierContentAndOnlyTheTabLabelsInTheTree() throws {
        // Divider + overlay's Text; one modifier.
        #expect(try validatedEmission("view_body__ContainerSample", #"{"which":32}"#).contains(
            #""coverage":{"totalNodes":2,"opaqueNodes":0,"totalModifiers":1,"opaqueModifiers":0}"#))
        // TabView, forEach and its two Texts: the rows' dropped tab labels are not counted.
        #expect(try validatedEmission("view_body__ContainerSample", #"{"which":88}"#).contains(
            #""coverage":{"totalNodes":4,"opaqueNodes":0,"totalModifiers":0,"opaqueModifiers":0}"#))
    }

    @Test func aSettingsScreenOfSectionsLabelsAndNavigationLinksLowersAndDispatches() throws {
        _ = try validatedEmission("view_body__SettingsScreen", #"{"userName":"Grace","folders":["Inbox"]}"#)
        let events = ["action_0", "action_0"].map(ViewEventRequest.init(parsing:))
        let run = try guest.runView("SettingsScreen", inputs: try #require(MessagePackValue.parseJSON(Array(#"{"userName":"Grace"}"#.utf8))), events: events)
        #expect(run.events.map(\.state) == [#"{"refreshes":1}"#, #"{"refreshes":2}"#])
        #expect(ViewOutline.render(run.render.tree.root) == """
            navigationStack
              list .listStyle(insetGrouped) .navigationTitle("Settings")
                section
                  header:
                    text("Account")
                  content:
                    navigationLink
                      destination:
                        text("Profile of Grace") .font({style: title2}) .navigationBarTitleDisplayMode("inline")
                      label:
                        label
                          title:
                            text("Grace")
                          icon:
                            image(systemName: "person.crop.circle")
                section
                  header:
                    text("Folders")
                  content:
                    forEach
                      navigationLink
                        destination:
                          text("Inbox")
                        label:
                          label .labelStyle("titleAndIcon")
                            title:
                              text("Inbox")
                            icon:
                              image(systemName: "folder")
                      navigationLink
                        destination:
                          text("Archive")
                        label:
                          label .labelStyle("titleAndIcon")
                            title:
                              text("Archive")
                            icon:
                              image(systemName: "folder")
                section
                  footer:
                    text("Synced") .textCase
                  content:
                    button(actionID: "action_0") .buttonStyle(borderless)
                      label:
                        text("Refresh (2)")
            """)
    }
}
