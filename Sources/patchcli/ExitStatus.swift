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
    /// The release store does not verify: a signature, hash, length, version or reference is wrong,
    /// or the store serves older metadata than was trusted (rollback).
    case storeInvalid = 40
    /// Release metadata has expired (a frozen or abandoned store); publish or refresh it.
    case metadataExpired = 41
    /// Another publisher holds the store lock or committed first; retry.
    case publishConflict = 42
    /// A signing key is missing, malformed or not the one the store's root lists for its role.
    case keyProblem = 43
    /// The module failed pre-publish verification (use --skip-verify only for a module you trust).
    case moduleRejected = 44
    /// No such channel, fingerprint or release, or nothing earlier to roll back to.
    case releaseNotFound = 45
    /// The store is not initialized (release init) or is already initialized.
    case storeState = 46
    /// Publishing was aborted on purpose by fault injection (PATCHCLI_FAULT_AT, tests only).
    case publishAborted = 49
}
