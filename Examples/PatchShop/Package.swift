// swift-tools-version:6.0
// PatchShop: a small SwiftUI storefront used by `make demo` to show `patchcli init` and `prepare`.
// It builds for iOS/macOS only (SwiftUI); on Linux, patchcli parses it without compiling it.
import PackageDescription

let package = Package(
    name: "PatchShop",
    platforms: [.iOS(.v17), .macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/patch-release/patch-swift", from: "1.4.0"),
    ],
    targets: [
        // Pure logic (no SwiftUI): what `patchcli build` compiles to WebAssembly when it changes.
        .target(
            name: "ShopCore",
            dependencies: [.product(name: "PatchSDK", package: "patch-swift")]),
        .executableTarget(
            name: "PatchShop",
            dependencies: [
                "ShopCore",
                .product(name: "PatchSDK", package: "patch-swift"),
                .product(name: "PatchSwiftUI", package: "patch-swift"),
            ]),
    ]
)
