import Foundation
@testable import PatchBuild
import Testing

/// How the guest Foundation layer (templates/guest/Foundation*.swift) is found and what `build`
/// knows of it without compiling.
@Suite struct GuestFoundationLayerTests {
    @Test func theLayerIsFoundByNameAndCompiledBeforeTheViewDSL() throws {
        let directory = try GuestTemplates.locate()
        let files = GuestTemplates.foundationFiles(in: directory)
        #expect(files.contains("Foundation.swift"))
        #expect(files.contains("Foundation+Date.swift"))
        #expect(files.allSatisfy { $0 == "Foundation.swift" || $0.hasPrefix("Foundation+") })
        #expect(GuestTemplates.viewDSLLibraryFiles(in: directory) == files + GuestTemplates.viewDSLFiles(in: directory))
        // Both guest libraries compile the layer with the prelude; a program compiles against one of them.
        #expect(GuestLibrary.foundation.files(in: directory) == files)
        #expect(GuestLibrary.viewDSL.files(in: directory) == GuestTemplates.viewDSLLibraryFiles(in: directory))
        let toolchain = try Toolchain.discover()
        let commands = GuestCommands(toolchain: toolchain, workDirectory: "/work", library: .init(library: .foundation, directory: "/cache/entry"))
        #expect(commands.libraryCompile(.foundation, files: files).contains("Foundation+Date.swift"))
        #expect(!commands.swiftc.contains("Foundation+Date.swift") && !commands.swiftc.contains("Prelude.swift"))
    }

    /// `GuestFrameworkNames.foundationLayer` names what the templates declare: a name missing there
    /// would be reported as `os_framework_api` though the guest has it, and a name listed but not
    /// declared would fail to compile instead of being reported.
    @Test func theNamesBuildKnowsAreTheOnesTheLayerDeclares() throws {
        let directory = try GuestTemplates.locate()
        let text = try GuestTemplates.foundationFiles(in: directory).map {
            try String(contentsOfFile: (directory as NSString).appendingPathComponent($0), encoding: .utf8)
        }.joined(separator: "\n")
        // Top-level declarations start their line.
        let declared = Set(text.split(separator: "\n").compactMap { line -> String? in
            guard line.first != " " else { return nil }
            let words = line.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "<" || $0 == "{" || $0 == "(" }).filter { $0 != "final" }
            guard words.count >= 2, ["struct", "enum", "class", "typealias", "func"].contains(String(words[0])) else { return nil }
            return String(words[1])
        }.filter { !$0.hasPrefix("_") })
        #expect(declared == GuestFrameworkNames.foundationLayer)
        for name in GuestValueType.foundationLayer.keys { #expect(declared.contains(name), "\(name)") }
        for name in declared { #expect(GuestFrameworkNames.types[name] == nil, "\(name)") }
    }

    /// `os_framework_api` names the symbol the guest compiler could not find (docs/guest-foundation.md).
    @Test func theMissingSymbolIsReadFromTheGuestCompilersDiagnostic() {
        #expect(GuestFrameworkNames.missingSymbol(in: "value of type 'Calendar' has no member 'shortMonthSymbols'") == "Calendar.shortMonthSymbols")
        #expect(GuestFrameworkNames.missingSymbol(in: "type 'Calendar.Component' has no member 'era'") == "Calendar.Component.era")
        #expect(GuestFrameworkNames.missingSymbol(in: "cannot find 'NSRegularExpression' in scope") == "NSRegularExpression")
        #expect(GuestFrameworkNames.missingSymbol(in: "cannot find type 'Measurement' in scope") == "Measurement")
        let unavailable = "'date(from:)' is unavailable: the SDK has no bridge parsing a date with a pattern or style (only ISO 8601)"
        #expect(GuestFrameworkNames.missingSymbol(in: unavailable) == "date(from:)")
        #expect(GuestFrameworkNames.missingSymbol(in: "missing argument label 'terminator:' in call") == nil)
        // What the layer declares unavailable is the framework's API when the file imports one.
        #expect(GuestModuleBuilder.classify(unavailable, imports: ["Foundation"]) == .osFrameworkAPI)
        #expect(GuestModuleBuilder.classify(unavailable, imports: []) == .compileError)
    }
}
