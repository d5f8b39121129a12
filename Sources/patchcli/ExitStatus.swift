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

    // `run` (20-29): each way a module can fail a smoke test has its own code.
    /// The device runtime would refuse the module (memories, features, memory export, invalid function).
    case moduleRejected = 20
    /// The guest trapped (unreachable, out-of-bounds access, division by zero, …).
    case guestTrapped = 21
    /// The --fuel budget ran out (typically an infinite loop).
    case fuelExhausted = 22
    /// The --timeout wall-clock budget ran out.
    case timedOut = 23
    /// Linear memory or a table would grow past its cap (--max-memory-pages, --max-table-elements,
    /// --max-total-table-elements), or the module declares more than that.
    case memoryLimit = 24
    /// The interpreter stack overflowed (runaway recursion).
    case stackExhausted = 25
    /// An import is not served by the device (unknown module/name or wrong signature).
    case missingImport = 26
    /// At least one smoke probe failed.
    case smokeProbeFailed = 27
    /// The call itself could not be made or its result read (no such export, wrong ABI, bad packed result).
    case callFailed = 28
    /// No rung of the --fallback ladder activated.
    case fallbackExhausted = 29
    /// `prepare --check`: sources are not prepared as `prepare` would leave them (docs/prepare.md).
    case prepareWouldChange = 30
    /// build: no usable toolchain (swiftc with the Embedded wasm32 stdlib, clang, wasm-ld) or
    /// guest templates.
    case toolchainMissing = 31
    /// build: the guest compiler or linker failed in a way not attributable to one declaration.
    case guestCompileFailed = 32
    /// build: none of the requested declarations can be patched.
    case nothingToPatch = 33
    /// build: no declaration differs from the baseline `prepare` recorded.
    case noChanges = 34
    /// build: some changes cannot be patched and stay native (without --allow-native-changes).
    case nativeChangesPresent = 35
    /// build: the patched share of the changes is below --min-coverage.
    case coverageBelowMinimum = 36
    /// `run --view`: a view document of the module (manifest, body or dispatch result) breaks the IR
    /// contract (sdk-contract §5.3-§5.6), so the device would demote the view.
    case viewInvalid = 37
    /// `run --view`: the view or event asked for is not there (no manifest, unknown or unrouted view,
    /// read-only view, no such event in the tree).
    case viewUnavailable = 38
    /// `doctor`: at least one check failed (warnings alone exit 0).
    case doctorFailed = 39
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
    case moduleFailedVerification = 44
    /// No such channel, fingerprint or release, or nothing earlier to roll back to.
    case releaseNotFound = 45
    /// The store is not initialized (release init) or is already initialized.
    case storeState = 46
    /// serve: the server could not listen on --host/--port (in use, not permitted, no such address).
    case serveFailed = 47
    /// serve, status: the event database cannot be opened, created or read.
    case eventDatabase = 48
    /// Publishing was aborted on purpose by fault injection (PATCHCLI_FAULT_AT, tests only).
    case publishAborted = 49
    // `prepare --check` (30, 50-54): each finding asks for a different fix (docs/prepare.md).
    /// `prepare --check`: `.patch/baseline.json` is missing.
    case notPrepared = 50
    /// `prepare --check`: the baseline is unreadable, or records the same declarations differently.
    case baselineStale = 51
    /// `prepare --check`: declarations differ from the baseline; the branch is a patch (`build` it).
    case sourcesChangedSinceBaseline = 52
    /// `prepare --check`: a generated file or generated section does not parse.
    case generatedUnparsable = 53
    /// `prepare --check`: the Xcode project does not compile a generated file in exactly the targets
    /// that need it.
    case generatedUnregistered = 54
    // Assets (56-57, docs/assets.md).
    /// `build`: an asset of the app is broken (a color outside sRGB, a corrupt image, a duplicate key,
    /// format specifiers that differ between locales, a config file failing its schema).
    case assetInvalid = 56
    /// `build`, `release`: the artifact is larger than `--max-artifact-bytes`.
    case artifactTooLarge = 57
    // `audit` (60-61): the history it replays cannot be read, or is shorter than asked.
    /// `audit`: not in a git repository, or git failed (missing, a scratch work tree it cannot add).
    case historyUnavailable = 60
    /// `audit`: fewer Swift-changing first-parent commits with a parent than `--history` asks for.
    case historyTooShort = 61
    // Update triggers (70-71): `release --notify`, `serve --notify-on-publish` (docs/triggers.md).
    /// APNs credentials are missing or malformed (a .p8 that is not a P-256 key, a key or team id
    /// that is not 10 characters, no topic), or APNs refused them after the token was refreshed.
    case apnsCredentials = 70
    /// Some pushes still failed after the retries (the release itself is published).
    case notifyFailed = 71
    // The PostgreSQL event store (72-73): `serve`, `status --events postgres://…` (docs/serve.md).
    /// The `postgres://` URL does not parse (no user, host or database; an unknown parameter).
    case eventsURL = 72
    /// PostgreSQL cannot be reached or used at start (refused, unknown host, authentication,
    /// no such database, a schema of a newer patchcli).
    case eventsUnreachable = 73
}
