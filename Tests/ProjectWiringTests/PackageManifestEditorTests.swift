import PatchManifest
@testable import ProjectWiring
import Testing

struct PackageManifestEditorTests {
    let sdk = ProjectConfig.SDKPackage()
    let app = [PackageManifestEditor.TargetProducts(target: "App", products: ["PatchSDK", "PatchSwiftUI"])]

    func wire(_ text: String, targets: [PackageManifestEditor.TargetProducts]? = nil) throws -> (text: String, markers: [String]) {
        let result = try PackageManifestEditor.wiring(Array(text.utf8), path: "Package.swift", sdk: sdk, targets: targets ?? app)
        return (String(decoding: result.bytes, as: UTF8.self), result.markers)
    }

    /// Wires `text`, checks the result, that wiring again changes nothing and that unwiring gives `text` back.
    func check(_ text: String, becomes expected: String, targets: [PackageManifestEditor.TargetProducts]? = nil) throws {
        let (wired, markers) = try wire(text, targets: targets)
        #expect(wired == expected)
        let again = try wire(wired, targets: targets)
        #expect(again.text == wired)
        #expect(again.markers.isEmpty)
        let unwired = PackageManifestEditor.unwiring(Array(wired.utf8), sdk: sdk, markers: markers)
        #expect(String(decoding: unwired, as: UTF8.self) == text)
    }

    @Test func addsToExistingMultilineListsKeepingComments() throws {
        try check("""
            // swift-tools-version:5.9
            import PackageDescription

            let package = Package(
                name: "App",
                dependencies: [
                    .package(url: "https://github.com/a/b", from: "1.0.0") // pinned for b
                ],
                targets: [
                    .target(
                        name: "App",
                        dependencies: [
                            "Core",
                        ]),
                    .target(name: "Core"),
                ]
            )
            """, becomes: """
            // swift-tools-version:5.9
            import PackageDescription

            let package = Package(
                name: "App",
                dependencies: [
                    .package(url: "https://github.com/a/b", from: "1.0.0"), // pinned for b
                    .package(url: "https://github.com/patch-release/patch-swift", from: "1.4.0")
                ],
                targets: [
                    .target(
                        name: "App",
                        dependencies: [
                            "Core",
                            .product(name: "PatchSDK", package: "patch-swift"),
                            .product(name: "PatchSwiftUI", package: "patch-swift"),
                        ]),
                    .target(name: "Core"),
                ]
            )
            """)
    }

    @Test func createsMissingDependencyArgumentsInTheirPlace() throws {
        try check("""
            let package = Package(
                name: "App",
                platforms: [.iOS(.v17)],
                products: [.library(name: "App", targets: ["App"])],
                targets: [
                    .target(name: "App", path: "Sources/App"),
                    .executableTarget(name: "Tool")
                ]
            )
            """, becomes: """
            let package = Package(
                name: "App",
                platforms: [.iOS(.v17)],
                products: [.library(name: "App", targets: ["App"])],
                dependencies: [
                    .package(url: "https://github.com/patch-release/patch-swift", from: "1.4.0"),
                ],
                targets: [
                    .target(name: "App", dependencies: [.product(name: "PatchSDK", package: "patch-swift"), .product(name: "PatchSwiftUI", package: "patch-swift")], path: "Sources/App"),
                    .executableTarget(name: "Tool", dependencies: [.product(name: "PatchSDK", package: "patch-swift")])
                ]
            )
            """, targets: app + [.init(target: "Tool", products: ["PatchSDK"])])
    }

    @Test func aCreatedListIndentsInTheFilesOwnUnit() throws {
        try check("let package = Package(\n\tname: \"App\",\n\ttargets: [.target(name: \"App\", dependencies: [\"Core\"])]\n)\n",
                  becomes: "let package = Package(\n\tname: \"App\",\n\tdependencies: [\n\t\t.package(url: \"https://github.com/patch-release/patch-swift\", from: \"1.4.0\"),\n\t],\n\ttargets: [.target(name: \"App\", dependencies: [\"Core\", .product(name: \"PatchSDK\", package: \"patch-swift\")])]\n)\n",
                  targets: [.init(target: "App", products: ["PatchSDK"])])
        try check("let package = Package(\n  name: \"App\",\n  targets: [.target(name: \"App\")]\n)\n",
                  becomes: "let package = Package(\n  name: \"App\",\n  dependencies: [\n    .package(url: \"https://github.com/patch-release/patch-swift\", from: \"1.4.0\"),\n  ],\n  targets: [.target(name: \"App\", dependencies: [.product(name: \"PatchSDK\", package: \"patch-swift\")])]\n)\n",
                  targets: [.init(target: "App", products: ["PatchSDK"])])
    }

    @Test func targetReferencesAndUnlinkedKindsAreLeftAlone() throws {
        try check("""
            let package = Package(name: "App", dependencies: [], targets: [
                .systemLibrary(name: "Csqlite3", pkgConfig: "sqlite3"),
                .target(name: "Sqlite", dependencies: [.target(name: "Csqlite3")]),
            ])
            """, becomes: """
            let package = Package(name: "App", dependencies: [.package(url: "https://github.com/patch-release/patch-swift", from: "1.4.0")], targets: [
                .systemLibrary(name: "Csqlite3", pkgConfig: "sqlite3"),
                .target(name: "Sqlite", dependencies: [.target(name: "Csqlite3"), .product(name: "PatchSDK", package: "patch-swift")]),
            ])
            """, targets: [.init(target: "Csqlite3", products: ["PatchSDK"]), .init(target: "Sqlite", products: ["PatchSDK"])])
    }

    @Test func emptyListsAndConditionalCompilation() throws {
        try check("""
            let package = Package(name: "App", dependencies: [], targets: [
                .target(name: "App", dependencies: [])
            ])
            #if os(Linux)
            package.dependencies.append(.package(url: "https://github.com/x/linux-only", from: "1.0.0"))
            #endif
            """, becomes: """
            let package = Package(name: "App", dependencies: [.package(url: "https://github.com/patch-release/patch-swift", from: "1.4.0")], targets: [
                .target(name: "App", dependencies: [.product(name: "PatchSDK", package: "patch-swift")])
            ])
            #if os(Linux)
            package.dependencies.append(.package(url: "https://github.com/x/linux-only", from: "1.0.0"))
            #endif
            """, targets: [.init(target: "App", products: ["PatchSDK"])])
    }

    @Test func reusesAnExistingDependencyOnTheSameRepository() throws {
        for spelling in [".package(url: \"git@github.com:Patch-Release/patch-swift.git\", exact: \"1.4.2\")",
                         ".package(url: \"https://github.com/patch-release/patch-swift/\", .upToNextMajor(from: \"1.0.0\"))"] {
            let text = """
                let package = Package(name: "App", dependencies: [
                    \(spelling),
                ], targets: [.target(name: "App", dependencies: [.product(name: "PatchSDK", package: "patch-swift")])])
                """
            let (wired, markers) = try wire(text, targets: [.init(target: "App", products: ["PatchSDK"])])
            #expect(wired == text)
            #expect(markers.isEmpty)
            // A product the user had is not taken out by a revert either.
            #expect(PackageManifestEditor.unwiring(Array(wired.utf8), sdk: sdk, markers: markers) == Array(text.utf8))
        }
    }

    @Test func aForkKeepsItsOwnPackageIdentity() throws {
        let fork = ProjectConfig.SDKPackage(url: "https://git.example.com/mobile/PatchSDK-Fork.git", version: "2.0.0")
        let result = try PackageManifestEditor.wiring(Array("let package = Package(name: \"A\", targets: [.target(name: \"A\")])".utf8),
                                                      path: "Package.swift", sdk: fork, targets: [.init(target: "A", products: ["PatchSDK"])])
        #expect(String(decoding: result.bytes, as: UTF8.self) == """
            let package = Package(name: "A", dependencies: [.package(url: "https://git.example.com/mobile/PatchSDK-Fork.git", from: "2.0.0")], targets: [.target(name: "A", dependencies: [.product(name: "PatchSDK", package: "patchsdk-fork")])])
            """)
    }

    @Test func unsupportedShapesAreErrorsWithTheirLine() throws {
        let variable = "let deps: [Package.Dependency] = []\nlet package = Package(\n    name: \"A\",\n    dependencies: deps,\n    targets: [.target(name: \"App\")])\n"
        #expect(throws: WiringError.unsupportedManifest(path: "Package.swift", line: 4, reason: "`dependencies:` is not an array literal")) { try wire(variable) }
        let missingTarget = "let package = Package(name: \"A\", targets: [.target(name: \"Other\")])"
        #expect(throws: WiringError.targetNotDeclared(target: "App", path: "Package.swift")) { try wire(missingTarget) }
        #expect(throws: WiringError.self) { try wire("// not a manifest\n") }
    }

    @Test func repositorySpellings() {
        #expect(PackageManifestEditor.normalizedRepository("git@github.com:Patch-Release/patch-swift.git") == "github.com/patch-release/patch-swift")
        #expect(PackageManifestEditor.normalizedRepository("https://github.com/patch-release/patch-swift/") == "github.com/patch-release/patch-swift")
        #expect(PackageManifestEditor.packageIdentity("https://github.com/patch-release/patch-swift") == "patch-swift")
    }
}
