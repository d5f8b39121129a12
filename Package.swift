// swift-tools-version:6.0
import PackageDescription

// Layout and ownership of each target: docs/architecture.md.
let package = Package(
    name: "patchcli",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "patchcli", targets: ["patchcli"]),
        .library(name: "PatchDiff", targets: ["PatchDiff"]),
        .library(name: "PatchStore", targets: ["PatchStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.0"..<"5.0.0"),
        // Pinned exactly: `patchcli run` claims parity with the device runtime, so the engine version
        // is part of what a smoke test means.
        .package(url: "https://github.com/swiftwasm/WasmKit", exact: "0.4.2"),
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.0.0"),
        // `serve`'s GET /metrics in the Prometheus text format (docs/serve.md "Metrics").
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // `release --notify` and `serve --notify-on-publish` speak HTTP/2 to APNs (docs/triggers.md):
        // FoundationNetworking on Linux cannot be told to trust another CA, so a mock APNs could not
        // be tested through it. HummingbirdTesting already pulls these in for the tests.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        // `serve --events postgres://…`: the event store of replicas (docs/serve.md "Deployment").
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.3"),
    ],
    targets: [
        // System compression libraries, linked through pkg-config where the platform ships a .pc file
        // (Debian's libbz2-dev does not; the module map links -lbz2 directly).
        .systemLibrary(
            name: "CBZip2", pkgConfig: "bzip2",
            providers: [.apt(["libbz2-dev"]), .brew(["bzip2"])]),
        .systemLibrary(
            name: "CZstd", pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]),
        .systemLibrary(
            name: "CLZMA", pkgConfig: "liblzma",
            providers: [.apt(["liblzma-dev"]), .brew(["xz"])]),
        .systemLibrary(
            name: "CBrotli", pkgConfig: "libbrotlienc libbrotlidec",
            providers: [.apt(["libbrotli-dev"]), .brew(["brotli"])]),
        // The event database of `patchcli serve` / `status`.
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),

        .target(
            name: "PatchDiff",
            dependencies: ["CBZip2", "CZstd", "CLZMA", "CBrotli"]),

        .target(
            name: "PatchManifest",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]),

        .target(
            name: "PatchRuntime",
            dependencies: [
                "PatchManifest",
                "PatchDiff",
                .product(name: "WasmKit", package: "WasmKit"),
                .product(name: "WasmKitWASI", package: "WasmKit"),
                // Section-level scanning for the parity checks, and the WASI clock/random protocols.
                .product(name: "WasmParser", package: "WasmKit"),
                .product(name: "WASI", package: "WasmKit"),
                // `run --allow-network`'s live requests: NIO's client rather than URLSession, so the
                // executable links no FoundationNetworking (libcurl and its TLS, Kerberos and LDAP
                // libraries cost every command's start-up; docs/benchmarks.md, "Apply's resident floor").
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),

        // The app's asset sources (asset catalogs, strings, string catalogs, JSON config) read and
        // validated into resource-overlay entries (docs/assets.md).
        .target(name: "PatchAssets", dependencies: ["PatchManifest"]),

        // project.pbxproj as data: the OpenStep property-list parser and the byte-splicing editor.
        // Depends on nothing, so any target can read Xcode projects.
        .target(name: "PBXProj"),

        // `init`'s wiring of an app to PatchSDK: byte edits of Package.swift and the app's entry point
        // (swift-syntax) and of project.pbxproj (PBXProj).
        .target(
            name: "ProjectWiring",
            dependencies: [
                "PBXProj",
                "PatchManifest",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ]),

        // `patchcli prepare` and `patchcli build`: Swift sources in, guest wasm modules out.
        // swift-syntax stays in this target (and the executable). Guest templates live in templates/
        // at the package root and are located at run time.
        .target(
            name: "PatchBuild",
            dependencies: [
                "PatchManifest",
                // `prepare` records the app's assets in the baseline; `build` ships their changes.
                "PatchAssets",
                // `doctor` round-trips the system codecs.
                "PatchDiff",
                // `init` writes the signing keys and `doctor` checks them (`KeyDirectory`).
                "PatchStore",
                "ProjectWiring",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftParserDiagnostics", package: "swift-syntax"),
                // The guest compiles the `#if` branches a device build of the app compiles.
                .product(name: "SwiftIfConfig", package: "swift-syntax"),
            ]),

        // The signed release store: plain files any static host can serve (docs/release.md).
        .target(
            name: "PatchStore",
            dependencies: ["PatchManifest", "PatchDiff"]),

        // `patchcli serve` and `status`: the SDK's update protocol over a release store, and the event
        // database. Hummingbird stays in this target (and the executable).
        .target(
            name: "PatchServer",
            dependencies: [
                "PatchStore", "PatchManifest", "CSQLite",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]),

        // The PostgreSQL event store of `serve`/`status --events postgres://…` (PatchServer's
        // `EventStore`): PostgresNIO stays in this target, so PatchServer builds without it.
        .target(
            name: "PatchEventsPostgres",
            dependencies: [
                "PatchServer", "PatchManifest",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]),

        // Update triggers: the silent-push payload, APNs token auth (ES256 JWT) and the HTTP/2 sender.
        .target(
            name: "PatchNotify",
            dependencies: [
                "PatchManifest",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]),

        .executableTarget(
            name: "patchcli",
            dependencies: [
                "PatchNotify",
                "PatchDiff",
                "PatchManifest",
                "PatchAssets",
                "PatchRuntime",
                "PatchBuild",
                "PatchStore",
                "PatchServer",
                "PatchEventsPostgres",
                "ProjectWiring",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // libFuzzer target for the BSDIFF40 applier and the codecs: `make fuzz` (docs in its Entry.swift).
        .executableTarget(name: "PatchDiffFuzz", dependencies: ["PatchDiff"]),

        // benchmarks/run's in-process half: bare WasmKit next to PatchRuntime (benchmarks/run/README.md).
        .executableTarget(
            name: "PatchRunBench",
            dependencies: ["PatchRuntime", .product(name: "WasmKit", package: "WasmKit")],
            path: "benchmarks/run/PatchRunBench"),

        // Test support: running the python3 peers that several test targets check our output against.
        .target(name: "PythonPeer", path: "Tests/PythonPeer"),
        // Test support: a mock APNs (HTTP/2 over TLS on loopback) that checks what a provider sends.
        .target(
            name: "APNsTestServer",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Tests/APNsTestServer"),
        .testTarget(
            name: "PatchNotifyTests",
            dependencies: ["PatchNotify", "APNsTestServer", .product(name: "Crypto", package: "swift-crypto"), .product(name: "NIOCore", package: "swift-nio")]),
        .testTarget(name: "PatchDiffTests", dependencies: ["PatchDiff"]),
        .testTarget(
            name: "PatchRuntimeTests",
            dependencies: ["PatchRuntime", "PatchManifest", "PatchDiff", "PatchBuild", .product(name: "WAT", package: "WasmKit")],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "PatchBuildTests",
            dependencies: [
                "PatchBuild", "PatchManifest", "PatchStore",
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
            ],
            exclude: ["Fixtures", "GuestFixtures"]),
        .testTarget(
            name: "PatchManifestTests",
            dependencies: ["PatchManifest", "PythonPeer", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "PatchStoreTests", dependencies: ["PatchStore", "PatchManifest", "PatchDiff", "PythonPeer"]),
        .testTarget(
            name: "PatchServerTests",
            dependencies: [
                "PatchServer", "PatchStore", "PatchManifest", "PatchDiff", "PatchRuntime",
                .product(name: "WAT", package: "WasmKit"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        // Test support: a PostgreSQL server of a test's own (initdb + postgres on loopback).
        .target(
            name: "PostgresTestServer",
            dependencies: [.product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log")],
            path: "Tests/PostgresTestServer"),
        .testTarget(
            name: "PatchEventsPostgresTests",
            dependencies: [
                "PatchEventsPostgres", "PatchServer", "PatchStore", "PatchManifest", "PostgresTestServer",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        .testTarget(name: "PBXProjTests", dependencies: ["PBXProj"]),
        .testTarget(name: "PatchAssetsTests", dependencies: ["PatchAssets", "PatchManifest"]),
        .testTarget(name: "ProjectWiringTests", dependencies: ["ProjectWiring", "PBXProj", "PatchManifest", "PythonPeer"]),
        .testTarget(name: "patchcliTests", dependencies: ["patchcli", "APNsTestServer", "PatchAssets", "PostgresTestServer"]),
    ]
)
