"""Tests of the modifier census: `python3 -m unittest discover -s benchmarks/lowering`."""

from __future__ import annotations

import unittest

import modifier_census
from swift_views import Lexer


def calls(source: str) -> list[str]:
    tokens = Lexer(source).run()
    names = []
    for start, end in modifier_census.body_token_ranges(tokens):
        names += modifier_census.modifier_calls(tokens, start, end)
    return names


class ModifierCensusTests(unittest.TestCase):
    def test_chained_and_line_leading_calls_count_arguments_and_member_calls_do_not(self) -> None:
        source = """
        struct Screen: View {
            var title = "a"
            var body: some View {
                VStack { Text("x").bold() }
                    .padding()
                    .font(.system(size: 12))
                    .overlay { Color.red.opacity(0.5) }
                    .frame(maxWidth: .infinity)
                    .init(model.load())
                // .hidden() in a comment, ".italic()" in a string
            }
            func helper() -> some View { Text("h").italic() }
        }
        """
        self.assertEqual(calls(source), ["bold", "padding", "font", "overlay", "frame"])

    def test_nested_braces_end_the_body_at_its_own_brace(self) -> None:
        source = """
        struct A: View {
            var body: some View { List { ForEach(items) { Text($0) }.tint(.red) } }
            var other: some View { Text("b").bold() }
        }
        """
        self.assertEqual(calls(source), ["tint"])

    def test_lowered_names_are_the_dsls_instance_functions(self) -> None:
        names = modifier_census.lowered_names()
        self.assertTrue({"padding", "overlay", "buttonStyle", "tabItem"} <= names)
        self.assertNotIn("system", names)  # a static Font factory, not a modifier
        self.assertFalse(any(name.startswith("_") for name in names))


if __name__ == "__main__":
    unittest.main()
