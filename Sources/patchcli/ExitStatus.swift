/// The exit-code table of docs/cli.md. Codes are stable: CI scripts branch on them.
enum ExitStatus: Int32, Codable {
    case success = 0
    /// A bug in patchcli: please report it.
    case internalError = 1
    /// Wrong flags or arguments.
    case usage = 2
    /// An input file is missing or cannot be read.
    case inputUnavailable = 3
    /// An input is malformed: not a valid patch, module, archive or config.
    case malformedInput = 4
    /// The input is well-formed but does not verify: a patch that does not match OLD, a hash mismatch,
    /// a round trip that does not reproduce NEW.
    case verificationFailed = 5
    /// A size or resource cap was hit (decompression bombs, output caps).
    case limitExceeded = 6
    /// An output file could not be written.
    case outputUnwritable = 7
    /// build: no usable toolchain (swiftc with the Embedded wasm32 stdlib, clang, wasm-ld) or
    /// guest templates.
    case toolchainMissing = 31
    /// build: the guest compiler or linker failed in a way not attributable to one declaration.
    case guestCompileFailed = 32
    /// build: none of the requested declarations can be patched.
    case nothingToPatch = 33
}
