@testable import PatchBuild
import Testing

/// Name resolution of the source index, which `build` runs for every name a changed view mentions
/// (so it is backed by tables, not scans): the innermost enclosing type's nested type wins, then
/// outer scopes, then every type of that name; a path lookup prefers the exact path to a suffix.
@Suite struct SourceIndexLookupTests {
    static let index = GuestSourceIndex(sources: [
        ("Sources/App/Extensions.swift", """
            // The extension comes before its type's file: nested types declared here still resolve.
            extension Shop.Row {
                struct Badge {}
            }
            extension String {
                func shouted() -> String { self }
            }
            """),
        ("Sources/App/Shop.swift", """
            struct Badge {}
            struct Style {}
            enum Shop {
                struct Style {}
                struct Row {
                    struct Style {}
                    let style: Style
                }
                struct Footer {
                    let style: Style
                }
            }
            enum Other {
                struct Badge {}
            }
            let shouted = 1
            """),
    ])

    func path(_ index: Int) -> [String] { Self.index.types[index].path }

    @Test func theInnermostEnclosingTypesNestedTypeWins() {
        let index = Self.index
        #expect(index.resolveType(named: "Style", from: ["Shop", "Row"]).map(path) == [["Shop", "Row", "Style"]])
        #expect(index.resolveType(named: "Style", from: ["Shop", "Footer"]).map(path) == [["Shop", "Style"]])
        #expect(index.resolveType(named: "Style", from: []).map(path) == [["Style"]])
        #expect(index.resolveType(named: "Badge", from: ["Shop", "Row"]).map(path) == [["Shop", "Row", "Badge"]])
        #expect(index.resolveType(named: "Badge", from: ["Shop"]).map(path) == [["Badge"]])
    }

    @Test func aNameNoScopeDeclaresResolvesToEveryTypeOfThatNameInIndexOrder() {
        // No top-level `Row`: from outside `Shop` it is every `Row` there is.
        #expect(Self.index.resolveType(named: "Row", from: ["Other"]).map(path) == [["Shop", "Row"]])
        // The extension's nested type is indexed after every file's types: it comes last.
        #expect(Self.index.types(named: "Badge").map(path) == [["Badge"], ["Other", "Badge"], ["Shop", "Row", "Badge"]])
        #expect(Self.index.types(named: "Badge") == Self.index.types.indices.filter { Self.index.types[$0].name == "Badge" })
        #expect(Self.index.resolveType(named: "Missing", from: ["Shop"]).isEmpty)
    }

    @Test func aPathLookupPrefersTheExactPathToASuffix() throws {
        let index = Self.index
        #expect(index.lookupType(path: ["Style"]).map(path) == ["Style"])
        #expect(index.lookupType(path: ["Row", "Style"]).map(path) == ["Shop", "Row", "Style"])
        #expect(index.lookupType(path: ["Row"]).map(path) == ["Shop", "Row"])
        #expect(index.lookupType(path: ["Shop", "Footer"]).map(path) == ["Shop", "Footer"])
        #expect(index.lookupType(path: ["Footer", "Style"]) == nil)
        #expect(index.type(atPath: ["Row"]) == nil, "only a suffix matches")
    }

    @Test func globalsAreFoundByEachNameTheyDeclare() {
        let index = Self.index
        let shouted = index.globals(named: "shouted")
        #expect(shouted.count == 2)
        // In index order: members of foreign extensions are indexed after every file's top level.
        #expect(shouted.map { index.globals[$0].foreignExtension != nil } == [false, true])
        #expect(index.globals(named: "nothing").isEmpty)
    }
}
