import ArgumentParser
import PatchBuild

/// `patchcli build`: compiles the named Swift declarations into one guest wasm module with its
/// manifest and symbol map. Change detection against `prepare`'s baseline is not wired yet: the
/// declarations to export are given with --export.
struct Build: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Compile Swift declarations into a small, deterministic patch module (module.wasm + manifest.json).",
        discussion: """
            Each --export is a declaration id: Type.name(label:_:) or name(label:). Declarations that cannot run in the
            guest are listed with the reason and file:line and stay native; the others are exported under the packed
            JSON ABI (patch_fn__…) plus a scalar fast path (patch_fns__…) when every parameter and the result are
            Int/Int64/Int32/Double/Bool.

            Smoke probes: a comment directly above a function,
              // @probe {"items": [], "discount": {"none": {}}} -> {"value": 0}
            is copied into manifest.json `probes`.

            Outputs in -o DIR: module.wasm (no custom sections), module.unstripped.wasm (with the name section),
            symbols.json, manifest.json, PatchGuest.swift (the generated guest source).
            Exit codes: 31 toolchain missing, 32 guest compile failed, 33 nothing to patch.
            """)

    @Option(help: "Directory of the app's Swift sources.")
    var sources: String

    @Option(name: .customLong("export"), help: "Declaration id to patch (repeatable), e.g. 'PriceCalculator.total(items:discount:)'.")
    var exports: [String]

    @Option(name: [.short, .customLong("output")], help: "Output directory.")
    var output: String

    @Option(help: "Swift toolchain to use (its root, usr or usr/bin); default: swiftc on PATH.")
    var toolchain: String?

    @OptionGroup var outputOptions: OutputOptions

    struct Report: Encodable {
        struct Export: Encodable {
            var declarationId: String
            var symbol: String
            var scalarSymbol: String?
        }
        var output: String
        var moduleBytes: Int
        var sha256: String
        var exports: [Export]
        var unpatchable: [GuestUnpatchable]
        var probes: Int
    }

    func run() async throws {
        let console = Console(outputOptions)
        try await console.perform("build") {
            console.progress("building \(exports.count) declaration(s)…")
            let toolchain = try Toolchain.discover(explicitPath: self.toolchain)
            let result = try GuestModuleBuilder.build(GuestBuildRequest(
                sourcesDirectory: sources, exports: exports, outputDirectory: output, toolchain: toolchain))
            let manifest = result.manifest
            for export in manifest.exports {
                console.line("patched  \(export.declarationId)  → \(export.symbol)\(export.scalar.map { " (+ \($0.symbol) \($0.wasmSignature))" } ?? "")")
            }
            for item in manifest.unpatchable {
                console.line("native   \(item)")
            }
            console.line("module.wasm: \(manifest.module.size) bytes, sha256 \(manifest.module.sha256) (in \(output))")
            return Report(
                output: output, moduleBytes: manifest.module.size, sha256: manifest.module.sha256,
                exports: manifest.exports.map { .init(declarationId: $0.declarationId, symbol: $0.symbol, scalarSymbol: $0.scalar?.symbol) },
                unpatchable: manifest.unpatchable, probes: manifest.probes.count)
        }
    }
}
