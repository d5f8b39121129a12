@testable import PatchBuild
import Testing

/// File-private globals of several files in the one guest program (`GuestPrivateNames`): each file's
/// `private let logger` and `private func label` get a name of their file, the file's code follows,
/// other files' private names are never pulled into a closure, and messages show the user's names.
@Suite struct GuestPrivateNamesTests {
    static func file(_ name: String) -> String {
        """
        import os

        private let logger = Logger(subsystem: "birds", category: "\(name)")

        private func label(_ count: Int) -> String { "\(name) \\(count)" }

        enum \(name.capitalized) {
            static func describe(count: Int) -> String {
                logger.info("describe")
                return each([count])[0] + twice(logger: count)
            }

            static func each(_ counts: [Int]) -> [String] { counts.map { logger in label(logger) } }

            static func twice(logger: Int) -> String { label(logger * 2) }
        }
        """
    }

    static let index = GuestSourceIndex(sources: [
        ("Birds/Alpha.swift", file("alpha")),
        ("Birds/Beta.swift", file("beta")),
        ("Birds/Feeder.swift", """
            private let seeds = 3

            struct Feeder: Codable {
                var label: String
                func describe() -> String { label + String(seeds) }
            }
            """),
    ])

    static func export(_ id: String) throws -> GuestExportName { try #require(GuestExportName(declarationID: id)) }

    @Test func eachFilesPrivateGlobalsAreRenamedWithTheirReferences() throws {
        let program = GuestSourceGenerator(index: Self.index).generate(exports: [try Self.export("Alpha.describe(count:)"), try Self.export("Beta.describe(count:)")])
        #expect(program.unpatchable.isEmpty, "\(program.unpatchable)")
        let alpha = GuestPrivateNames.suffix(for: "Birds/Alpha.swift"), beta = GuestPrivateNames.suffix(for: "Birds/Beta.swift")
        #expect(alpha != beta)
        #expect(alpha.wholeMatch(of: /__private_[0-9a-f]{8}/) != nil, "\(alpha)")
        let source = program.source
        for suffix in [alpha, beta] {
            #expect(source.contains("private let logger\(suffix) = Logger(subsystem:"), "\(source)")
            #expect(source.contains("private func label\(suffix)(_ count: Int) -> String"), "\(source)")
            #expect(source.contains("logger\(suffix).info(\"describe\")"), "\(source)")
            // A closure parameter and a parameter shadowing the global are renamed with their uses, a
            // parameter's label stays the API: each reference still finds its own binding.
            #expect(source.contains("counts.map { logger\(suffix) in label\(suffix)(logger\(suffix)) }"), "\(source)")
            #expect(source.contains("static func twice(logger logger\(suffix): Int) -> String { label\(suffix)(logger\(suffix) * 2) }"), "\(source)")
            #expect(source.contains("twice(logger: count)"), "\(source)")
        }
        #expect(!source.contains("let logger ="), "\(source)")
    }

    /// Only a name two files' included globals declare is renamed; a type's member of the same name
    /// is what its methods' bare name means, so it stays.
    @Test func anUncollidingPrivateGlobalKeepsItsName() throws {
        let program = GuestSourceGenerator(index: Self.index).generate(exports: [try Self.export("Feeder.describe()")])
        #expect(program.source.contains("private let seeds = 3"), "\(program.source)")
        #expect(program.source.contains("func describe() -> String { label + String(seeds) }"), "\(program.source)")
    }

    /// Beta's code never means Alpha's `private` globals: they stay out of its closure.
    @Test func anotherFilesPrivateGlobalsAreNotInTheClosure() throws {
        let program = GuestSourceGenerator(index: Self.index).generate(exports: [try Self.export("Beta.describe(count:)")])
        let globals = program.closures[0].compactMap { unit -> String? in
            guard case .global(let global) = unit else { return nil }
            return Self.index.files[Self.index.globals[global].file].relativePath
        }
        #expect(Set(globals) == ["Birds/Beta.swift"], "\(globals)")
        #expect(program.source.contains("private let logger = Logger"), "alone, nothing collides: \(program.source)")
    }

    @Test func compilerMessagesShowTheUsersNames() {
        let suffix = GuestPrivateNames.suffix(for: "Birds/Alpha.swift")
        #expect(GuestPrivateNames.restoringNames(in: "cannot convert value of type 'Logger' to 'Int' in 'logger\(suffix)' and label\(suffix)(_:)")
                == "cannot convert value of type 'Logger' to 'Int' in 'logger' and label(_:)")
        #expect(GuestPrivateNames.restoringNames(in: "a__private_xyz stays") == "a__private_xyz stays")
    }
}
