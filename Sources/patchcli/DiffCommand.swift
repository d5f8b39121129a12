import ArgumentParser
import PatchManifest

/// `patchcli diff`: BSDIFF40 patches between module versions (what devices download instead of a
/// whole module) and the artifact codecs modules travel in.
struct Diff: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Create and apply BSDIFF40 patches; compress and decompress artifacts.",
        discussion: "`patchcli diff OLD NEW -o PATCH` is short for `patchcli diff create OLD NEW -o PATCH`.",
        subcommands: [DiffCreate.self, DiffApply.self, Compress.self, Decompress.self],
        defaultSubcommand: DiffCreate.self
    )
}

/// Byte counts as people read them, next to the exact number.
enum ByteCount {
    static func format(_ count: Int) -> String {
        let units = ["B", "KiB", "MiB", "GiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(count) B" : "\(value.fixed(places: 1)) \(units[unit]) (\(count) bytes)"
    }
}

/// Parses sizes like `256MiB`, `64k`, `1048576` for cap options.
struct ByteSize: ExpressibleByArgument {
    let bytes: Int

    init?(argument: String) {
        let lowered = argument.lowercased()
        let suffixes: [(String, Int)] = [("gib", 1 << 30), ("mib", 1 << 20), ("kib", 1 << 10), ("g", 1 << 30), ("m", 1 << 20), ("k", 1 << 10), ("b", 1)]
        var multiplier = 1
        var digits = Substring(lowered)
        if let (suffix, factor) = suffixes.first(where: { lowered.hasSuffix($0.0) }) {
            multiplier = factor
            digits = digits.dropLast(suffix.count)
        }
        guard let value = Int(digits), value > 0 else { return nil }
        let (product, overflow) = value.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { return nil }
        bytes = product
    }

    init(bytes: Int) { self.bytes = bytes }

    static var defaultCompletionKind: CompletionKind { .default }
}
