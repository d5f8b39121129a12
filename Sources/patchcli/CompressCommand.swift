import ArgumentParser
import PatchDiff

extension CodecKind: ExpressibleByArgument {}

struct Compress: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compress an artifact with brotli (how devices download modules), zstd, xz or bzip2.")

    @Argument(help: "The file to compress.") var input: String
    @Option(name: .shortAndLong, help: "Where to write the compressed file.") var output: String
    @Option(help: "The codec: \(CodecKind.allCases.map(\.rawValue).joined(separator: ", ")).") var codec: CodecKind = .brotli
    @Option(help: "Compression level (codec-specific; default: each codec's strongest practical setting).") var level: Int?
    @OptionGroup var outputOptions: OutputOptions

    struct Report: Encodable {
        var input: String, output: String, codec: CodecKind
        var inputBytes: Int, outputBytes: Int
    }

    func run() async throws {
        let console = Console(outputOptions)
        try await console.perform("diff compress") {
            try FileAccess.requireDistinct(output: output, inputs: [input])
            let bytes = try FileAccess.read(input)
            let compressed = try codec.compress(bytes, level: level)
            try FileAccess.writeAtomically(compressed, to: output)
            console.line("\(codec.rawValue)  \(ByteCount.format(bytes.count)) → \(ByteCount.format(compressed.count))  \(output)")
            return Report(input: input, output: output, codec: codec, inputBytes: bytes.count, outputBytes: compressed.count)
        }
    }
}

struct Decompress: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decompress an artifact, capped against decompression bombs.",
        discussion: "zstd, xz and bzip2 are recognised by their magic bytes; brotli streams have none, so it is the fallback.")

    @Argument(help: "The compressed file.") var input: String
    @Option(name: .shortAndLong, help: "Where to write the decompressed file.") var output: String
    @Option(help: "The codec, when detection is not wanted.") var codec: CodecKind?
    @Option(help: "Refuse to produce more than this (default: the SDK's 512MiB brotli cap).") var maxOutputSize = ByteSize(bytes: 512 << 20)
    @OptionGroup var outputOptions: OutputOptions

    struct Report: Encodable {
        var input: String, output: String, codec: CodecKind
        var inputBytes: Int, outputBytes: Int
    }

    func run() async throws {
        let console = Console(outputOptions)
        try await console.perform("diff decompress") {
            try FileAccess.requireDistinct(output: output, inputs: [input])
            let bytes = try FileAccess.read(input)
            let format = codec ?? CodecKind.detect(bytes) ?? .brotli
            let decompressed = try format.decompress(bytes, maxOutputBytes: maxOutputSize.bytes)
            try FileAccess.writeAtomically(decompressed, to: output)
            console.line("\(format.rawValue)  \(ByteCount.format(bytes.count)) → \(ByteCount.format(decompressed.count))  \(output)")
            return Report(input: input, output: output, codec: format, inputBytes: bytes.count, outputBytes: decompressed.count)
        }
    }
}
