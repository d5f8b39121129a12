import SwiftIfConfig
import SwiftParser
import SwiftSyntax

import PatchManifest

/// The `#if` configuration of the app as a device of one platform runs it: a release build for
/// arm64 (arm64_32 on watchOS; a universal macOS binary's x86_64 slice is compiled from the same
/// branches unless the code tests `arch(…)`, which this evaluates as arm64). The guest compiles
/// the branches that build compiles, so on iOS a view declared (or a modifier applied) under
/// `#if os(iOS)` or `#if canImport(UIKit)` lowers, on macOS one under `#if os(macOS)`, and
/// `#if DEBUG` code never ships.
struct GuestDeviceConfiguration: BuildConfiguration {
    var platform: AppPlatform = .iOS

    /// Modules of every platform's SDK `canImport` finds. Another module (a package the app depends
    /// on) is not known from the sources alone and counts as absent.
    static let commonModules: Set<String> = [
        "Swift", "Foundation", "SwiftUI", "Combine", "Observation", "SwiftData", "CoreData", "CoreGraphics", "CoreText",
        "CoreLocation", "MapKit", "StoreKit", "AVFoundation", "AVKit", "WidgetKit", "AppIntents", "TipKit", "Charts",
        "CloudKit", "CoreML", "UserNotifications", "os", "OSLog", "Darwin", "Dispatch", "Security", "CryptoKit",
        "AuthenticationServices", "GameKit", "SpriteKit", "SceneKit", "CoreMotion", "Network", "Contacts",
        "AudioToolbox", "CoreBluetooth", "ImageIO", "UniformTypeIdentifiers", "MediaPlayer", "NaturalLanguage",
        "Accelerate", "RegexBuilder", "Synchronization", "HealthKit", "EventKit", "PassKit",
        "LocalAuthentication", "Vision", "Speech", "CoreHaptics", "QuartzCore", "CoreImage", "Metal", "MetalKit",
        "Photos", "BackgroundTasks", "LinkPresentation", "WebKit", "QuickLook", "PhotosUI", "ARKit", "RealityKit",
    ]

    /// What a platform's SDK has beyond `commonModules`, and what of them it lacks.
    static func modules(of platform: AppPlatform) -> Set<String> {
        switch platform {
        case .iOS:
            return commonModules.union(["UIKit", "ActivityKit", "VisionKit", "SafariServices", "MessageUI", "ContactsUI",
                                        "CoreNFC", "PencilKit"])
        case .macCatalyst:
            // Catalyst's SDK holds AppKit too: `canImport(AppKit)` is true there (which is why
            // multiplatform code tests `os(macOS)` for the Mac).
            return modules(of: .iOS).subtracting(["CoreNFC", "ActivityKit", "ARKit"]).union(["AppKit"])
        case .macOS:
            return commonModules.union(["AppKit", "Cocoa", "Carbon", "ServiceManagement", "ScreenCaptureKit", "IOKit",
                                        "ContactsUI", "SafariServices", "PencilKit", "VisionKit"])
                .subtracting(["ARKit"])
        case .visionOS:
            return commonModules.union(["UIKit", "CompositorServices", "SafariServices", "MessageUI", "PencilKit", "VisionKit",
                                        "ContactsUI", "ActivityKit"])
        case .tvOS:
            return commonModules.union(["UIKit", "TVUIKit", "TVServices"])
                .subtracting(["HealthKit", "ARKit", "RealityKit", "EventKit", "PassKit", "LocalAuthentication", "WebKit",
                              "Contacts", "CoreMotion", "Speech", "QuickLook"])
        case .watchOS:
            // WatchKit apps still see the small UIKit of watchOS (UIImage, UIColor).
            return commonModules.union(["WatchKit", "ClockKit", "UIKit", "WatchConnectivity"])
                .subtracting(["ARKit", "RealityKit", "Metal", "MetalKit", "CoreImage", "WebKit", "QuickLook", "PhotosUI",
                              "LinkPresentation", "Vision", "BackgroundTasks", "QuartzCore"])
        }
    }

    func isCustomConditionSet(name: String) -> Bool { false }
    func hasFeature(name: String) -> Bool { false }
    func hasAttribute(name: String) -> Bool { false }
    func canImport(importPath: [(TokenSyntax, String)], version: CanImportVersion) -> Bool {
        importPath.first.map { Self.modules(of: platform).contains($0.1) } ?? false
    }
    func isActiveTargetOS(name: String) -> Bool {
        // `OSX` and `xrOS` are older spellings the compiler still accepts.
        name == platform.operatingSystem || (platform == .macOS && name == "OSX") || (platform == .visionOS && name == "xrOS")
    }
    func isActiveTargetArchitecture(name: String) -> Bool { name == (platform == .watchOS ? "arm64_32" : "arm64") }
    func isActiveTargetEnvironment(name: String) -> Bool { platform == .macCatalyst && name == "macCatalyst" }
    func isActiveTargetRuntime(name: String) -> Bool { name == "_ObjC" }
    func isActiveTargetPointerAuthentication(name: String) -> Bool { false }
    func isActiveTargetObjectFormat(name: String) -> Bool { name == "MachO" }
    var targetPointerBitWidth: Int { platform == .watchOS ? 32 : 64 }
    var targetAtomicBitWidths: [Int] { platform == .watchOS ? [32, 64] : [32, 64, 128] }
    var endianness: Endianness { .little }
    var languageVersion: VersionTuple { VersionTuple(6, 0) }
    var compilerVersion: VersionTuple { VersionTuple(6, 3) }

    /// Whether the code at `line` of `tree` (its first token) is compiled in this platform's build:
    /// every `#if` clause around it is the active one. A line of no token counts as compiled.
    func compiles(line: Int, of tree: SourceFileSyntax, converter: SourceLocationConverter) -> Bool {
        guard let token = tree.tokens(viewMode: .sourceAccurate).first(where: {
            $0.startLocation(converter: converter, afterLeadingTrivia: true).line >= line
        }) else { return true }
        return tree.configuredRegions(in: self).isActive(token) == .active
    }

    /// The file as the device build compiles it, line for line and column for column: the `#if`,
    /// `#elseif`, `#else` and `#endif` lines and the inactive branches are blanked with spaces (line
    /// breaks kept), so every location the guest compiler or build reports is the project's own.
    func activeSource(_ tree: SourceFileSyntax) -> SourceFileSyntax {
        final class Blanker: SyntaxVisitor {
            let configuration: GuestDeviceConfiguration
            var ranges: [Range<Int>] = []
            init(configuration: GuestDeviceConfiguration) {
                self.configuration = configuration
                super.init(viewMode: .sourceAccurate)
            }
            override func visit(_ node: IfConfigDeclSyntax) -> SyntaxVisitorContinueKind {
                let active = node.activeClause(in: configuration).clause
                for clause in node.clauses {
                    let directiveEnd = clause.condition?.endPositionBeforeTrailingTrivia ?? clause.poundKeyword.endPositionBeforeTrailingTrivia
                    ranges.append(clause.poundKeyword.positionAfterSkippingLeadingTrivia.utf8Offset..<directiveEnd.utf8Offset)
                    if clause.id != active?.id, let elements = clause.elements {
                        ranges.append(elements.position.utf8Offset..<elements.endPosition.utf8Offset)
                    }
                }
                ranges.append(node.poundEndif.positionAfterSkippingLeadingTrivia.utf8Offset..<node.poundEndif.endPositionBeforeTrailingTrivia.utf8Offset)
                return .visitChildren
            }
        }
        let blanker = Blanker(configuration: self)
        blanker.walk(tree)
        guard !blanker.ranges.isEmpty else { return tree }
        var bytes = Array(tree.description.utf8)
        for range in blanker.ranges {
            for offset in range where bytes[offset] != UInt8(ascii: "\n") && bytes[offset] != UInt8(ascii: "\r") { bytes[offset] = UInt8(ascii: " ") }
        }
        return Parser.parse(source: String(decoding: bytes, as: UTF8.self))
    }
}
