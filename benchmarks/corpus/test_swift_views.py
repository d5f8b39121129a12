"""Tests of the independent view count: `python3 -m unittest discover -s benchmarks/corpus`."""

from __future__ import annotations

import unittest

import swift_views


def views(*files: str) -> list[tuple[str, bool]]:
    scans = {f"File{index}.swift": swift_views.scan(text) for index, text in enumerate(files)}
    return sorted((view.name, view.local) for view in swift_views.views_in(scans))


class ViewCountTests(unittest.TestCase):
    def test_declarations_nested_types_and_extensions_in_other_files(self) -> None:
        first = """
        import SwiftUI
        struct Screen: View {
            var body: some View { Text("a") }
            struct Row: SwiftUI.View {
                var body: some SwiftUI.View { Text("b") }
            }
        }
        struct Later {}
        enum Badge: Equatable, @MainActor View where Self: Sendable { var body: some View { EmptyView() } }
        final class Host<Content: View>: View { @ViewBuilder var body: some View { EmptyView() } }
        """
        second = """
        extension Later: View {}
        extension Later { var body: some View { EmptyView() } }
        extension Screen.Row { static var preview: some View { Self() } }
        """
        self.assertEqual(views(first, second), [("Badge", False), ("Host", False), ("Later", False),
                                                ("Screen", False), ("Screen.Row", False)])

    def test_comments_and_string_literals_hide_code(self) -> None:
        text = '''
        // struct InLineComment: View { var body: some View { EmptyView() } }
        /* struct Outer: View { /* nested */ var body: some View { EmptyView() } } */
        struct Real: View {
            let plain = "struct InString: View { var body: some View {"
            let interpolated = "\\(label("}")) \\("{")"
            let raw = #"raw " \\( struct InRaw: View { "#
            let multiline = """
                var body: some View {
                """
            var body: some View { Text(plain) }
        }
        '''
        self.assertEqual(views(text), [("Real", False)])

    def test_what_is_not_a_view(self) -> None:
        text = """
        struct NoConformance { var body: some View { EmptyView() } }
        protocol Screen: View { var body: some View { get } }
        struct Concrete: View { var body: Text { Text("") } }
        struct Modifier: ViewModifier { func body(content: Content) -> some View { content } }
        struct Stored: View { let body: some View = EmptyView() }
        struct Model { class func make() -> Model { Model() }; var actor: Int { 1 } }
        """
        self.assertEqual(views(text), [])

    def test_local_types_and_if_clauses(self) -> None:
        text = """
        #if os(iOS)
        struct Twice: View { var body: some View { EmptyView() } }
        #else
        struct Twice: View { var body: some View { Color.red } }
        #endif
        func make() -> some View {
            struct Local: View { var body: some View { EmptyView() } }
            return Local()
        }
        """
        self.assertEqual(views(text), [("Local", True), ("Twice", False), ("Twice", False)])

    def test_protocols_refining_view_and_protocol_extension_bodies(self) -> None:
        protocols = """
        import SwiftUI
        protocol SliderContent: View { var value: Double { get } }
        protocol FancySlider: SliderContent {}
        protocol PlatformView: View { var iOSView: Text { get } }
        extension PlatformView {
            var body: some View { iOSView }
        }
        """
        types = """
        private struct Capsule: SliderContent {
            var value: Double
            var body: some View { Text("c") }
        }
        struct Fancy: FancySlider {
            var value: Double
            var body: some View { Text("f") }
        }
        struct Inline: PlatformView { var iOSView: Text }
        """
        # Conformance through protocols refining View counts; the protocol extension's default body
        # is not a view (Inline has no body of its own).
        self.assertEqual(views(protocols, types), [("Capsule", False), ("Fancy", False)])
        # Without the protocols' file the types do not conform.
        self.assertEqual(views(types), [])

    def test_sanitized_names_follow_the_name_rule(self) -> None:
        self.assertEqual(swift_views.sanitized_name("Outer.Inner"), "Outer_Inner")
        self.assertEqual(swift_views.sanitized_name("Café"), "Caf_uE9_")
        self.assertEqual(swift_views.expected_names("Outer.Row", ["Swiftfin iOS", "Kit/UI"]),
                         {"Outer_Row", "Swiftfin_u20_iOS_Outer_Row", "Kit_u2F_UI_Outer_Row"})


if __name__ == "__main__":
    unittest.main()
