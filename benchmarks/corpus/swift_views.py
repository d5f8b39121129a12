"""An independent count of the SwiftUI views in Swift sources, written without patchcli's code.

A *view* here is a `var body: some View` (or `some SwiftUI.View`) computed property declared as a
member of a struct, class, enum or actor, or of an extension of one, whose type conforms to `View`
or `SwiftUI.View` (directly or through protocols of the group refining it) in its declaration or
in an extension within the same group of files (one target). Each such `body` counts once, so a type declared twice under `#if` clauses counts twice.
Views declared inside a function, closure or `#Preview` block are counted as *local*.

The scan is a small lexer (comments, nested block comments, string literals of every form with their
interpolations, raw strings, backticked names) and a brace-matching walk over its tokens. Known
limits: regex literals (`/.../`) are not lexed (a `{`, `}` or `"` inside one would desynchronise
the walk); braces opened under one `#if` clause and closed under another are not matched the way
the compiler would; conformance through a protocol of the group refining `View` is seen, through
a typealias or a protocol of another module it is not; a `body` in an extension of a protocol is a
default implementation, not a view; a type's
qualified name is its path of enclosing types as written, so two same-named types of one group
merge their conformance.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

IDENTIFIER_START = re.compile(r"[A-Za-z_\u00c0-\uffff]")
IDENTIFIER = re.compile(r"[A-Za-z0-9_\u00c0-\uffff]+")
# A `class` followed by one of these is a modifier (`class func`), not a class declaration.
NOT_A_TYPE_NAME = {"func", "var", "let", "subscript", "init", "deinit", "override", "final", "static",
                   "private", "fileprivate", "internal", "public", "open", "required", "convenience"}
TYPE_KEYWORDS = {"struct", "class", "enum", "actor", "protocol", "extension"}


class Lexer:
    """Splits Swift source into identifier and punctuation tokens with their line numbers, dropping
    comments and string literals (a literal becomes one `"` token)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.position = 0
        self.line = 1
        self.tokens: list[tuple[str, int]] = []

    def run(self) -> list[tuple[str, int]]:
        self.code(until_close_paren=False, keep=True)
        return self.tokens

    def advance(self, count: int) -> None:
        self.line += self.text.count("\n", self.position, self.position + count)
        self.position += count

    def code(self, until_close_paren: bool, keep: bool) -> None:
        """Lexes code; in an interpolation (`until_close_paren`) stops after the `)` that closes it."""
        text = self.text
        depth = 0
        while self.position < len(text):
            char = text[self.position]
            if char == "\n":
                self.line += 1
                self.position += 1
            elif char.isspace():
                self.position += 1
            elif text.startswith("//", self.position):
                end = text.find("\n", self.position)
                self.position = len(text) if end == -1 else end
            elif text.startswith("/*", self.position):
                self.block_comment()
            elif char == '"' or (char == "#" and re.match(r'#+"', text[self.position:self.position + 64])):
                line = self.line
                self.string()
                if keep:
                    self.tokens.append(('"', line))
            elif char == "`":
                end = text.find("`", self.position + 1)
                end = len(text) - 1 if end == -1 else end
                if keep:
                    self.tokens.append((text[self.position + 1:end], self.line))
                self.advance(end + 1 - self.position)
            elif IDENTIFIER_START.match(char) or char.isdigit():
                match = IDENTIFIER.match(text, self.position)
                if keep:
                    self.tokens.append((match.group(), self.line))
                self.position = match.end()
            elif char in "#@" and self.position + 1 < len(text) and IDENTIFIER_START.match(text[self.position + 1]):
                match = IDENTIFIER.match(text, self.position + 1)
                if keep:
                    self.tokens.append((char + match.group(), self.line))
                self.position = match.end()
            else:
                if until_close_paren:
                    if char == "(":
                        depth += 1
                    elif char == ")":
                        if depth == 0:
                            self.position += 1
                            return
                        depth -= 1
                if keep:
                    self.tokens.append((char, self.line))
                self.position += 1

    def block_comment(self) -> None:
        depth = 0
        text = self.text
        while self.position < len(text):
            if text.startswith("/*", self.position):
                depth += 1
                self.advance(2)
            elif text.startswith("*/", self.position):
                depth -= 1
                self.advance(2)
                if depth == 0:
                    return
            else:
                self.advance(1)

    def string(self) -> None:
        text = self.text
        hashes = 0
        while text[self.position + hashes] == "#":
            hashes += 1
        self.position += hashes
        multiline = text.startswith('"""', self.position)
        self.advance(3 if multiline else 1)
        closing = ('"""' if multiline else '"') + "#" * hashes
        escape = "\\" + "#" * hashes
        while self.position < len(text):
            if text.startswith(closing, self.position):
                self.advance(len(closing))
                return
            if text.startswith(escape, self.position):
                self.advance(len(escape))
                if self.position < len(text) and text[self.position] == "(":
                    self.position += 1
                    self.code(until_close_paren=True, keep=False)
                else:
                    self.advance(1)  # the escaped character
            elif text[self.position] == "\n" and not multiline:
                return  # unterminated single-line literal: the compiler would reject it; resume at the line end
            else:
                self.advance(1)


@dataclass
class TypeScope:
    name: str            # path of enclosing types as written, generics dropped: `Outer.Inner`
    is_protocol: bool
    local: bool          # declared inside a function, closure or macro block


VIEW_NAMES = {"View", "SwiftUI.View"}


@dataclass
class FileViews:
    inherits: dict[str, set[str]] = field(default_factory=dict)  # qualified name -> names its declarations here inherit
    protocols: set[str] = field(default_factory=set)             # protocols declared here
    local_conforming: set[str] = field(default_factory=set)        # `Name@brace` of local types
    bodies: list[tuple[str, int, bool]] = field(default_factory=list)  # (qualified name, line, local)


def parse_inheritance(tokens: list[tuple[str, int]], index: int) -> tuple[set[str], int]:
    """Reads an inheritance clause starting after `:`; returns the names it lists (`View`,
    `SwiftUI.View`, `SomeProtocol`, attributes dropped) and the index of the token that ends it
    (`{` or `where`)."""
    elements: list[list[str]] = [[]]
    angle = 0
    while index < len(tokens):
        token = tokens[index][0]
        if angle == 0 and token in ("{", "where", "}", ";"):
            break
        if token == "<":
            angle += 1
        elif token == ">":
            angle -= 1
        elif angle == 0 and token in (",", "&"):
            elements.append([])
        elif not token.startswith("@"):
            elements[-1].append(token)
        index += 1
    return {"".join(element) for element in elements if element}, index


def parse_header(tokens: list[tuple[str, int]], index: int) -> tuple[str, set[str], int] | None:
    """At a type keyword: returns (name as written, the names it inherits, index of its opening `{`)."""
    keyword = tokens[index][0]
    index += 1
    if index >= len(tokens) or not IDENTIFIER_START.match(tokens[index][0][:1]):
        return None
    if keyword == "class" and tokens[index][0] in NOT_A_TYPE_NAME:
        return None
    name = [tokens[index][0]]
    index += 1
    if keyword == "extension":
        while index + 1 < len(tokens) and tokens[index][0] == "." and IDENTIFIER_START.match(tokens[index + 1][0][:1]):
            name.append(tokens[index + 1][0])
            index += 2
    if index < len(tokens) and tokens[index][0] == "<":
        angle = 0
        while index < len(tokens):
            angle += {"<": 1, ">": -1}.get(tokens[index][0], 0)
            index += 1
            if angle == 0:
                break
    inherited: set[str] = set()
    if index < len(tokens) and tokens[index][0] == ":":
        inherited, index = parse_inheritance(tokens, index + 1)
    elif index < len(tokens) and tokens[index][0] not in ("{", "where"):
        return None  # `actor` or `class` used as an ordinary word
    while index < len(tokens) and tokens[index][0] not in ("{", "}", ";"):
        index += 1
    if index >= len(tokens) or tokens[index][0] != "{":
        return None
    return ".".join(name), inherited, index


def is_view_body(tokens: list[tuple[str, int]], index: int) -> bool:
    """`var body: some View {` or `var body: some SwiftUI.View {` at `tokens[index] == "var"`."""
    words = [token for token, _ in tokens[index:index + 8]]
    if words[:4] != ["var", "body", ":", "some"]:
        return False
    rest = words[4:]
    return rest[:2] == ["View", "{"] or rest[:4] == ["SwiftUI", ".", "View", "{"]


def scan(text: str) -> FileViews:
    tokens = Lexer(text).run()
    result = FileViews()
    stack: list[TypeScope | None] = []   # one entry per open brace: a type scope or None
    opening: dict[int, TypeScope] = {}   # brace index -> the scope it opens
    for index, (token, line) in enumerate(tokens):
        if token in TYPE_KEYWORDS:
            header = parse_header(tokens, index)
            if header:
                name, inherited, brace = header
                enclosing = stack[-1] if stack else None
                local = any(scope is None for scope in stack) or (enclosing is not None and enclosing.local)
                if token != "extension" and enclosing is not None and not local:
                    name = f"{enclosing.name}.{name}"
                if local:
                    name = f"{name}@{brace}"  # local types cannot be extended: the declaration is the type
                opening[brace] = TypeScope(name, token == "protocol", local)
                if local:
                    if inherited & VIEW_NAMES:
                        result.local_conforming.add(name)
                else:
                    result.inherits.setdefault(name, set()).update(inherited)
                    if token == "protocol":
                        result.protocols.add(name)
        elif token == "{":
            stack.append(opening.get(index))
        elif token == "}":
            if stack:
                stack.pop()
        elif token == "var" and stack and stack[-1] is not None and not stack[-1].is_protocol and is_view_body(tokens, index):
            scope = stack[-1]
            result.bodies.append((scope.name, line, scope.local))
    return result


@dataclass(frozen=True)
class View:
    path: str      # file, relative to the project
    line: int
    name: str      # qualified type name
    local: bool


def views_in(files: dict[str, FileViews]) -> list[View]:
    """The views of one group of files (a target): conformance is joined across the group, through
    protocols of the group that refine `View` too. A `body` in an extension of a protocol is a default
    implementation every conforming type shares, not a view of its own."""
    inherits: dict[str, set[str]] = {}
    for scanned in files.values():
        for name, names in scanned.inherits.items():
            inherits.setdefault(name, set()).update(names)
    protocols = set().union(*(scan.protocols for scan in files.values())) if files else set()
    view_names = set(VIEW_NAMES)
    while True:
        refining = {name for name in protocols if name not in view_names and inherits.get(name, set()) & view_names}
        if not refining:
            break
        view_names |= refining
    conforming = {name for name, names in inherits.items() if name not in protocols and names & view_names}
    views = []
    for path, scanned in files.items():
        for name, line, local in scanned.bodies:
            if (local and name in scanned.local_conforming) or (not local and name in conforming):
                views.append(View(path, line, name.split("@")[0], local))
    return views


def sanitized_name(name: str) -> str:
    """The `typeName` literal a routed view is expected to carry (docs/prepare.md, the name rule):
    generic parameters are already dropped by the scan; components joined by `_`; any character
    other than ASCII letters, digits and `_` becomes `_uXXXX_`."""
    return "_".join(sanitized_component(component) for component in name.split("."))


def sanitized_component(component: str) -> str:
    return "".join(char if (char.isascii() and (char.isalnum() or char == "_")) else f"_u{ord(char):X}_"
                   for char in component)


def expected_names(name: str, targets: list[str]) -> set[str]:
    """The literals a routed view may carry: its sanitized name, or, when views of other targets
    share it, that name qualified with the name of its target (any target holding its file)."""
    return {sanitized_name(name)} | {sanitized_component(target) + "_" + sanitized_name(name) for target in targets}
