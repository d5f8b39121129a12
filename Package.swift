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

        .target(
            name: "PatchDiff",
            dependencies: ["CBZip2", "CZstd", "CLZMA", "CBrotli"]),

        .target(
            name: "PatchManifest",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]),

        .target(
            name: "PatchStore",
            dependencies: ["PatchManifest", "PatchDiff"]),

        .executableTarget(
            name: "patchcli",
            dependencies: [
                "PatchDiff",
                "PatchManifest",
                "PatchStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        .testTarget(name: "PatchDiffTests", dependencies: ["PatchDiff"]),
        .testTarget(
            name: "PatchManifestTests",
            dependencies: ["PatchManifest", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "PatchStoreTests", dependencies: ["PatchStore", "PatchManifest", "PatchDiff"]),
        .testTarget(name: "patchcliTests", dependencies: ["patchcli"]),
    ]
)
