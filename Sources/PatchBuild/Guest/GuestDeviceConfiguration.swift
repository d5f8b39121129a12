import SwiftIfConfig
import SwiftParser
import SwiftSyntax

/// The `#if` configuration of the app as the device runs it: an iOS release build for arm64. The
/// guest compiles the branches that build compiles, so a view declared (or a modifier applied)
/// under `#if os(iOS)` or `#if canImport(UIKit)` lowers, and `#if DEBUG` code does not ship.
struct GuestDeviceConfiguration: BuildConfiguration {
    /// Modules of the iOS SDK `canImport` finds. Another module (a package the app depends on) is
    /// not known from the sources alone and counts as absent.
    static let iOSModules: Set<String> = [
        "Swift", "Foundation", "SwiftUI", "UIKit", "Combine", "Observation", "SwiftData", "CoreData", "CoreGraphics",
        "CoreImage", "CoreText", "QuartzCore", "CoreLocation", "MapKit", "StoreKit", "AVFoundation", "AVKit", "Photos",
        "PhotosUI", "WidgetKit", "ActivityKit", "AppIntents", "TipKit", "Charts", "CloudKit", "HealthKit", "CoreML",
        "Vision", "VisionKit", "UserNotifications", "os", "OSLog", "Darwin", "Dispatch", "Security", "CryptoKit",
        "LocalAuthentication", "AuthenticationServices", "WebKit", "SafariServices", "MessageUI", "GameKit", "ARKit",
        "RealityKit", "SpriteKit", "SceneKit", "Metal", "MetalKit", "CoreMotion", "Network", "EventKit", "Contacts",
        "ContactsUI", "PassKit", "BackgroundTasks", "AudioToolbox", "CoreHaptics", "CoreBluetooth", "CoreNFC",
        "QuickLook", "LinkPresentation", "ImageIO", "UniformTypeIdentifiers", "MediaPlayer", "Speech",
        "NaturalLanguage", "PencilKit", "Accelerate", "RegexBuilder", "Synchronization",
    ]

    func isCustomConditionSet(name: String) -> Bool { false }
    func hasFeature(name: String) -> Bool { false }
    func hasAttribute(name: String) -> Bool { false }
    func canImport(importPath: [(TokenSyntax, String)], version: CanImportVersion) -> Bool {
        importPath.first.map { Self.iOSModules.contains($0.1) } ?? false
    }
    func isActiveTargetOS(name: String) -> Bool { name == "iOS" }
    func isActiveTargetArchitecture(name: String) -> Bool { name == "arm64" }
    func isActiveTargetEnvironment(name: String) -> Bool { false }
    func isActiveTargetRuntime(name: String) -> Bool { name == "_ObjC" }
    func isActiveTargetPointerAuthentication(name: String) -> Bool { false }
    func isActiveTargetObjectFormat(name: String) -> Bool { name == "MachO" }
    var targetPointerBitWidth: Int { 64 }
    var targetAtomicBitWidths: [Int] { [32, 64, 128] }
    var endianness: Endianness { .little }
    var languageVersion: VersionTuple { VersionTuple(6, 0) }
    var compilerVersion: VersionTuple { VersionTuple(6, 3) }

    /// The file as the device build compiles it, line for line and column for column: the `#if`,
    /// `#elseif`, `#else` and `#endif` lines and the inactive branches are blanked with spaces (line
    /// breaks kept), so every location the guest compiler or build reports is the project's own.
    static func activeSource(_ tree: SourceFileSyntax) -> SourceFileSyntax {
        final class Blanker: SyntaxVisitor {
            var ranges: [Range<Int>] = []
            override func visit(_ node: IfConfigDeclSyntax) -> SyntaxVisitorContinueKind {
                let active = node.activeClause(in: GuestDeviceConfiguration()).clause
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
        let blanker = Blanker(viewMode: .sourceAccurate)
        blanker.walk(tree)
        guard !blanker.ranges.isEmpty else { return tree }
        var bytes = Array(tree.description.utf8)
        for range in blanker.ranges {
            for offset in range where bytes[offset] != UInt8(ascii: "\n") && bytes[offset] != UInt8(ascii: "\r") { bytes[offset] = UInt8(ascii: " ") }
        }
        return Parser.parse(source: String(decoding: bytes, as: UTF8.self))
    }
}
