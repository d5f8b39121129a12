import Foundation
import PatchBuild
import Testing

/// Compiles Swift against the SDK API stand-in (Tests/SDKStandIn: PatchSDK, PatchRender, PatchSwiftUI
/// exactly as sdk-contract §11 declares them, plus a minimal SwiftUI), so generated code that would not
/// compile against the real SDK fails a test.
enum SDKStandIn {
    /// The stand-in modules in build order (each imports only earlier ones).
    static let modules = ["SwiftUI", "PatchSDK", "PatchRender", "PatchSwiftUI"]

    /// The compiler: $SWIFTC, else `swiftc` on PATH.
    static let compiler: String? = {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["SWIFTC"] { return explicit }
        let directories = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return directories.map { $0 + "/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Whether suites that compile can run: a missing compiler skips them, except under CI=true,
    /// where it fails them.
    static let canRun = compiler != nil || ProcessInfo.processInfo.environment["CI"] == "true"

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SDKStandIn")

    struct Outcome {
        var status: Int32
        var output: String
    }

    static func run(_ executable: String, _ arguments: [String], in directory: URL) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    struct BuildFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// The built stand-ins (`<Module>.swiftmodule` and `lib<Module>.a` for each), built once per test run.
    private static let built: Result<URL, BuildFailure> = {
        guard let compiler else { return .failure(BuildFailure(description: "swiftc not found on PATH (set SWIFTC)")) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("patch-sdk-standin-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for module in modules {
                // Swift 5 mode: the stand-ins only need to give callers Apple's isolation, not be strict themselves.
                let result = try run(compiler, [
                    "-swift-version", "5", "-parse-as-library", "-emit-library", "-static", "-emit-module",
                    "-module-name", module, "-I", directory.path, sources.appendingPathComponent("\(module).swift").path,
                    "-o", directory.appendingPathComponent("lib\(module).a").path,
                ], in: directory)
                guard result.status == 0 else { return .failure(BuildFailure(description: "stand-in \(module) failed to build:\n\(result.output)")) }
            }
            return .success(directory)
        } catch {
            return .failure(BuildFailure(description: "building the stand-ins: \(error)"))
        }
    }()

    /// The directory holding the built stand-ins (for `-I` and `-L`).
    static func directory() throws -> URL { try built.get() }

    /// A fresh temporary directory the caller removes.
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("patch-compile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Compiles `files` (path → bytes; each written under its last path component) into one executable
    /// module `App` against every stand-in, in Swift 6 mode as current apps build, and runs it:
    /// dynamic replacement and the generated routing are real on Linux, only the UI types are not.
    /// `sources` as `plan` leaves them: its rewritten sources and generated files in place.
    static func prepared(_ sources: [SourceFile], by plan: PreparePlan) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for source in sources { files[source.path] = source.bytes }
        for update in plan.updates { files[update.path] = update.after }
        return files
    }

    /// - Parameter libraries: modules `App` imports, each compiled first (in order, each seeing the
    ///   earlier ones) into a static library from its files (path → bytes).
    static func compileAndRun(_ files: [String: [UInt8]], libraries: [(module: String, files: [String: [UInt8]])] = []) throws -> Outcome {
        let compiler = try #require(compiler, "CI=true requires swiftc")
        let standIns = try directory().path
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func write(_ files: [String: [UInt8]], into folder: String) throws -> [String] {
            let url = directory.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return try files.sorted(by: { $0.key < $1.key }).map { path, bytes in
                let name = (path as NSString).lastPathComponent
                try Data(bytes).write(to: url.appendingPathComponent(name))
                return folder + "/" + name
            }
        }
        let search = ["-I", standIns, "-L", standIns, "-I", directory.path, "-L", directory.path]
        for library in libraries {
            let names = try write(library.files, into: library.module)
            let build = try run(compiler, ["-swift-version", "6", "-parse-as-library", "-emit-library", "-static", "-emit-module",
                                           "-module-name", library.module] + search + names + ["-o", "lib\(library.module).a"], in: directory)
            try #require(build.status == 0, "prepared sources of \(library.module) failed to compile:\n\(build.output)")
        }
        let names = try write(files, into: "App")
        let build = try run(compiler, ["-swift-version", "6", "-module-name", "App"] + search
                            + (libraries.reversed().map(\.module) + modules).map { "-l" + $0 } + names + ["-o", "app"], in: directory)
        try #require(build.status == 0, "prepared sources failed to compile:\n\(build.output)")
        return try run(directory.appendingPathComponent("app").path, [], in: directory)
    }

    /// Typechecks `files` (name → text) together as one module against the stand-ins, in Swift 6 mode
    /// as current apps build. Returns nil when they compile, else the compiler's diagnostics.
    /// - Parameter modules: the stand-ins the files may import (default all): code that must not need
    ///   SwiftUI is checked without it.
    static func typecheck(_ files: [String: String], moduleName: String = "App", modules: [String] = modules,
                          parseAsLibrary: Bool = true) throws -> String? {
        let compiler = try #require(compiler, "CI=true requires swiftc")
        let built = try directory()
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let visible = directory.appendingPathComponent("__modules")
        try FileManager.default.createDirectory(at: visible, withIntermediateDirectories: true)
        for module in modules {
            try FileManager.default.createSymbolicLink(at: visible.appendingPathComponent("\(module).swiftmodule"),
                                                       withDestinationURL: built.appendingPathComponent("\(module).swiftmodule"))
        }
        var paths: [String] = []
        for (name, text) in files.sorted(by: { $0.key < $1.key }) {
            let url = directory.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            paths.append(url.path)
        }
        let result = try run(compiler, ["-typecheck", "-swift-version", "6", "-package-name", "Fixture", "-module-name", moduleName, "-I", visible.path]
                             + (parseAsLibrary ? ["-parse-as-library"] : []) + paths, in: directory)
        return result.status == 0 ? nil : result.output
    }
}

@Suite(.enabled(if: SDKStandIn.canRun, "swiftc not found on PATH (set SWIFTC)"))
struct SDKStandInTests {
    @Test func theStandInAcceptsTheContractsCallsAndRejectsOthers() throws {
        let exact = """
            import Foundation
            import PatchSDK
            struct Arguments: Encodable { let cents: Int }
            struct Result: Decodable { let value: Int }
            func total() throws -> Int {
                try Patch.shared.callJSON("_pf_total", Arguments(cents: 1), returning: Result.self).value
            }
            func launch() {
                Patch.configure(PatchConfiguration(appKey: "shop", apiBaseURL: URL(string: "https://example.com")!,
                                                   fingerprint: "f", channel: PatchChannel("beta")))
                Patch.configure(PatchConfiguration(appKey: "shop", channelName: "beta"))
                Patch.configure(PatchConfiguration(appKey: "shop", channel: .custom("qa")))
                Task { await Patch.shared.start() }
            }
            """
        #expect(try SDKStandIn.typecheck(["Exact.swift": exact]) == nil)

        // The call the function thunk used to make: the SDK has no callJSON without `returning:`.
        let missingReturning = """
            import PatchSDK
            struct Arguments: Encodable { let cents: Int }
            struct Result: Decodable { let value: Int }
            func total() throws -> Int {
                let result: Result = try Patch.shared.callJSON("_pf_total", Arguments(cents: 1))
                return result.value
            }
            """
        let diagnostics = try #require(try SDKStandIn.typecheck(["Wrong.swift": missingReturning]))
        #expect(diagnostics.contains("missing argument for parameter 'returning' in call"))

        // `channel:` takes a PatchChannel, not a string (the launch snippet `init` used to print).
        let stringChannel = "import PatchSDK\nfunc launch() { Patch.configure(PatchConfiguration(appKey: \"shop\", channel: \"beta\")) }\n"
        #expect(try SDKStandIn.typecheck(["Channel.swift": stringChannel]) != nil)
    }

    @Test func viewCodeNeedsPatchSwiftUIForThunkBody() throws {
        let thunk = """
            import PatchRender
            import PatchSDK
            import PatchSwiftUI
            import SwiftUI
            struct Banner: View {
                var body: some View {
                    if let host = Patch.shared.thunkBody(typeName: "Banner", instance: self, slots: { ["op_1": { AnyView(Text("x")) }] },
                                                         tokens: { ["ct_1": .color(.red), "ft_1": .font(.title), "nt_1": .number(4)] }) {
                        host
                    } else {
                        VStack { Text("native").font(.title); Color.blue }
                    }
                }
            }
            """
        #expect(try SDKStandIn.typecheck(["Banner.swift": thunk]) == nil)
        // PatchSwiftUI does not re-export PatchSDK: without it `Patch` is unknown.
        let withoutSDK = thunk.replacingOccurrences(of: "import PatchSDK\n", with: "")
        let diagnostics = try #require(try SDKStandIn.typecheck(["Banner.swift": withoutSDK]))
        #expect(diagnostics.contains("Patch"))
    }
}
