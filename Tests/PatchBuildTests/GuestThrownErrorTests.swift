@testable import PatchBuild
import SwiftParser
import SwiftSyntax
import Testing

/// The guest compiles `throws` as `throws(E)` (Embedded Swift has no `any Error`), with `E` read
/// from the function's `throw`s; one whose `throw`s name no single type says so instead.
@Suite struct GuestThrownErrorTests {
    static let index = GuestSourceIndex(sources: [("Sources/App/Loader.swift", """
        enum LoadError: Error {
            case missing(String)
            case corrupt
        }

        struct Budget: Error {
            var cents: Int
        }

        enum Loader {
            static func load(_ name: String) throws -> Int {
                guard !name.isEmpty else { throw LoadError.missing(name) }
                let check: () throws -> Void = { throw Budget(cents: 1) }
                _ = check
                if name == "x" { throw LoadError.corrupt }
                return name.count
            }

            static func spend(_ cents: Int) throws -> Int {
                if cents > 10 { throw Budget(cents: cents) }
                return cents
            }

            static func either(_ flag: Bool) throws -> Int {
                if flag { throw Budget(cents: 0) }
                throw LoadError.corrupt
            }

            static func forward(_ name: String) throws -> Int {
                try load(name) + 1
            }

            static func typed(_ cents: Int) throws(Budget) -> Int {
                cents
            }
        }
        """)])

    @Test func aThrowingFunctionIsCompiledWithTheTypeItsThrowsName() throws {
        let reader = GuestSignatureReader(index: Self.index)
        let load = try reader.plan(for: #require(GuestExportName(declarationID: "Loader.load(_:)"))).get()
        // The closure's `throw Budget(…)` is the closure's own.
        #expect(load.thrownError == .project(try #require(Self.index.lookupType(path: ["LoadError"]))))
        let spend = try reader.plan(for: #require(GuestExportName(declarationID: "Loader.spend(_:)"))).get()
        #expect(spend.thrownError == .project(try #require(Self.index.lookupType(path: ["Budget"]))))
        let typed = try reader.plan(for: #require(GuestExportName(declarationID: "Loader.typed(_:)"))).get()
        #expect(typed.thrownError == .project(try #require(Self.index.lookupType(path: ["Budget"]))))

        var writer = GuestSourceWriter()
        writer.copy(load.decl, from: Self.index.files[0])
        #expect(writer.text.contains("static func load(_ name: String) throws(LoadError) -> Int {"), "\(writer.text)")
        var glue = GuestSourceWriter()
        GuestCodecGenerator(index: Self.index, reader: reader).emitGlue(for: load, into: &glue)
        #expect(glue.text.contains("""
                    do throws(LoadError) {
                        writer.writeValueEnvelope(try Loader.load(argument0))
                    } catch {
                        writer.writeThrownEnvelope("LoadError", error)
                    }
            """), "\(glue.text)")
    }

    /// A block (an async function's `do` body) is read as a declaration's body is: its nested
    /// functions' and closures' `throw`s are theirs.
    @Test func aBlocksThrowsNameItsType() throws {
        let file = Parser.parse(source: """
            do {
                func nested() throws { throw Budget(cents: 1) }
                let check: () throws -> Void = { throw Budget(cents: 2) }
                if flag { throw LoadError.corrupt }
            } catch {}
            """)
        let body = try #require(file.statements.first?.item.as(DoStmtSyntax.self)?.body)
        #expect(GuestThrownError.typeName(in: Syntax(body)) == "LoadError")
    }

    @Test func throwsNamingNoSingleTypeAreNativeOnlyWithTheReason() throws {
        let reader = GuestSignatureReader(index: Self.index)
        for id in ["Loader.either(_:)", "Loader.forward(_:)"] {
            guard case .failure(let problem) = reader.plan(for: try #require(GuestExportName(declarationID: id))) else {
                Issue.record("\(id) was planned")
                continue
            }
            #expect(problem.reason == .unsupportedSignature)
            #expect(problem.detail.contains("do not name exactly one (`throw E.case`, `throw E(…)`): write `throws(E)`"), "\(problem.detail)")
            #expect(problem.location?.line == (id == "Loader.either(_:)" ? 24 : 29))
        }
    }
}
