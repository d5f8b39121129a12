import Foundation
import WasmKit

/// `patch.*` device/system bridges (sdk-contract §3.6). Every call is recorded in `BridgeState.calls`.
/// Answers follow one rule so a run is predictable:
/// * bridges that need hardware, a permission prompt or a user decision (camera, biometrics, purchases,
///   location, recording, contacts…) answer like a device where it is unavailable or declined: 0 / nil;
/// * pure side effects (haptics, sharing, speech, handoff, opening URLs, indexing…) are recorded and succeed;
/// * set/get pairs (badge, brightness, pasteboard, app-group strings, sandbox files) round-trip through
///   `BridgeState`; network-backed ones answer from the fixtures.
extension HostBridges {
    static let deviceStandIns: [StandIn] =
        recordedTextBridges + recordedSignalBridges + answeringBridges + statefulDeviceBridges + scopedFileBridges

    /// `(i32 ptr, i32 len) -> ()` side effects, recorded with their text argument.
    private static let recordedTextBridges: [StandIn] = [
        ("a11y_announce", ImportAvailability.iOSFamilyOnly),
        ("set_shortcuts", .iOSFamilyOnly),
        ("capture_photo", .iOSFamilyOnly),
        ("present_document_picker", .iOSFamilyOnly),
        ("export_document", .iOSFamilyOnly),
        ("start_handoff", .allPlatforms),
        ("stop_handoff", .allPlatforms),
        ("haptic_impact", .iOSFamilyOnly),
        ("haptic_notification", .iOSFamilyOnly),
        ("compose_mail", .iOSFamilyOnly),
        ("set_now_playing", .iOSFamilyOnly),
        ("begin_nfc_read", .iOSFamilyOnly),
        ("present_photo_picker", .iOSFamilyOnly),
        ("share", .iOSFamilyOnly),
        ("speak", .allPlatforms),
        ("send_watch_message", .iOSFamilyOnly),
        ("video_play", .allPlatforms),
    ].map { name, availability in
        StandIn("patch", name, [.i32, .i32], [], availability) { call in
            call.record([try call.string(0)])
            return []
        }
    }

    /// `() -> ()` and `(i32) -> ()` side effects.
    private static let recordedSignalBridges: [StandIn] =
        [
            ("request_review", ImportAvailability.iOSFamilyOnly),
            ("audio_stop", .allPlatforms),
            ("haptic_selection", .iOSFamilyOnly),
            ("clear_now_playing", .iOSFamilyOnly),
            ("stop_speaking", .allPlatforms),
            ("vibrate", .allPlatforms),
            ("video_pause", .allPlatforms),
            ("video_stop", .allPlatforms),
        ].map { name, availability in
            StandIn("patch", name, [], [], availability) { call in
                call.record([])
                return []
            }
        }
        + [
            ("end_background_task", ImportAvailability.iOSFamilyOnly),
            ("play_system_sound", .allPlatforms),
        ].map { name, availability in
            StandIn("patch", name, [.i32], [], availability) { call in
                call.record([String(try call.i32(0))])
                return []
            }
        }

    /// Bridges with a fixed answer (see the type comment for which answer a bridge gets).
    private static let answeringBridges: [StandIn] =
        [
            ("a11y_voiceover_running", ImportAvailability.iOSFamilyOnly),
            ("biometry_type", .allPlatforms),
            ("audio_is_recording", .allPlatforms),
            ("contacts_count", .allPlatforms),
        ].map { name, availability in
            StandIn("patch", name, [], [.i32], availability) { call in
                call.record([])
                return [.int32(0)]
            }
        }
        + [
            ("audio_play", ImportAvailability.allPlatforms, Int32(0)),
            ("audio_start_recording", .allPlatforms, 0),
            ("biometry_evaluate", .allPlatforms, 0),
            ("calendar_add_event", .allPlatforms, 0),
            ("contact_add", .allPlatforms, 0),
            ("iap_purchase", .iOSFamilyOnly, 0),
            ("maps_open", .iOSFamilyOnly, 1),
            ("open_url", .iOSFamilyOnly, 1),
            ("spotlight_index", .allPlatforms, 1),
        ].map { name, availability, answer in
            StandIn("patch", name, [.i32, .i32], [.i32], availability) { call in
                call.record([try call.string(0)])
                return [.int32(answer)]
            }
        }
        + [
            ("audio_stop_recording", ImportAvailability.allPlatforms),
            ("location_current", .allPlatforms),
            ("motion_read", .iOSFamilyOnly),
        ].map { name, availability in
            StandIn("patch", name, [], [.i64], availability) { call in
                call.record([])
                return [.i64(0)]
            }
        }
        + [
            ("pdf_from_text", ImportAvailability.allPlatforms),
            ("qr_generate", .allPlatforms),
            ("speech_transcribe", .allPlatforms),
        ].map { name, availability in
            StandIn("patch", name, [.i32, .i32], [.i64], availability) { call in
                call.record([try call.string(0)])
                return [.i64(0)]
            }
        }
        + [
            StandIn("patch", "apply_filter", [.i32, .i32, .i32, .i32], [.i64]) { call in
                call.record(["\(try call.bytes(0).count) bytes", try call.string(2)])
                return [.i64(0)]
            },
            StandIn("patch", "iap_products", [.i32, .i32], [.i64], .iOSFamilyOnly) { call in
                call.record([try call.string(0)])
                return try call.packed("[]")
            },
            StandIn("patch", "can_open_url", [.i32, .i32], [.i32], .iOSFamilyOnly) { call in
                let url = try call.string(0)
                call.record([url])
                let scheme = URL(string: url)?.scheme?.lowercased()
                return [.bool(scheme == "http" || scheme == "https")]
            },
            StandIn("patch", "connectivity_status", [], [.i64]) { call in
                call.record([])
                return try call.packed(
                    #"{"interface":"wifi","isConstrained":false,"isExpensive":false,"online":true}"#)
            },
            StandIn("patch", "device_info", [], [.i64], .iOSFamilyOnly) { call in
                call.record([])
                let info: BridgeJSON = .object([
                    "model": .string("iPhone"), "systemName": .string("iOS"),
                    "systemVersion": .string(call.configuration.effectiveOSVersion),
                    "name": .string("patchcli run"), "idiom": .string("phone"),
                    "screenWidth": .integer(390), "screenHeight": .integer(844), "scale": .integer(3),
                ])
                return try call.packed(info.canonicalText)
            },
            StandIn("patch", "process_info", [], [.i64]) { call in
                call.record([])
                let info: BridgeJSON = .object([
                    "thermalState": .string("nominal"), "lowPowerMode": .bool(false),
                    "osVersion": .string(call.configuration.effectiveOSVersion),
                    "processorCount": .integer(6), "activeProcessorCount": .integer(6),
                    "physicalMemory": .integer(6_442_450_944),
                ])
                return try call.packed(info.canonicalText)
            },
            StandIn("patch", "secure_random_bytes", [.i32], [.i64]) { call in
                let count = try call.i32(0)
                call.record([String(count)])
                guard (1...4096).contains(count) else { return [.i64(0)] }
                return try call.packed(call.state.randomBytes(count: Int(count)))
            },
            StandIn("patch", "network_image", [.i32, .i32], [.i64]) { call in
                let url = try call.string(0)
                call.record([url])
                let response = fixtureResponse(state: call.state, method: "GET", url: url)
                return try call.packed(response?.body ?? [])
            },
            StandIn("patch", "download_file", [.i32, .i32], [.i64]) { call in
                let url = try call.string(0)
                call.record([url])
                guard let response = fixtureResponse(state: call.state, method: "GET", url: url) else {
                    return [.i64(0)]
                }
                // Stored in the virtual Caches sandbox so `file_read("caches", …)` sees it.
                let name = URL(string: url)?.lastPathComponent ?? ""
                let relativePath = "downloads/" + (isSafeRelativePath(name) ? name : "download")
                call.state.scopedFiles["caches", default: [:]][relativePath] = response.body
                return try call.packed("caches/" + relativePath)
            },
        ]

    /// Set/get pairs kept in `BridgeState`.
    private static let statefulDeviceBridges: [StandIn] = [
        StandIn("patch", "analytics_track", [.i32, .i32]) { call in
            let json = try call.string(0)
            call.record([json])
            guard let document = BridgeJSON.parse(Array(json.utf8)), case .string(let event)? = document["event"]
            else {
                call.state.analyticsEvents.append(.malformedTrack(rawJSON: json))
                return []
            }
            var properties: [String: String] = [:]
            if case .object(let props)? = document["props"] {
                for (key, value) in props { properties[key] = value.propertyText }
            }
            call.state.analyticsEvents.append(.track(event: event, properties: properties))
            return []
        },
        StandIn("patch", "analytics_screen", [.i32, .i32]) { call in
            let name = try call.string(0)
            call.record([name])
            call.state.analyticsEvents.append(.screen(name: name))
            return []
        },
        StandIn("patch", "set_badge", [.i32], [], .iOSFamilyOnly) { call in
            let count = try call.i32(0)
            call.record([String(count)])
            call.state.badgeCount = max(count, 0)
            return []
        },
        StandIn("patch", "get_badge", [], [.i32], .iOSFamilyOnly) { call in
            call.record([])
            return [.int32(call.state.badgeCount)]
        },
        StandIn("patch", "app_group_get", [.i32, .i32], [.i64], .appOptIn) { call in
            let key = try call.string(0)
            call.record([key])
            return try call.packed(call.state.appGroupDefaults[key])
        },
        StandIn("patch", "app_group_set", [.i32, .i32, .i32, .i32], [], .appOptIn) { call in
            let key = try call.string(0)
            let value = try call.string(2)
            call.record([key, value])
            call.state.appGroupDefaults[key] = value
            return []
        },
        StandIn("patch", "app_group_remove", [.i32, .i32], [], .appOptIn) { call in
            let key = try call.string(0)
            call.record([key])
            call.state.appGroupDefaults[key] = nil
            return []
        },
        StandIn("patch", "audio_set_volume", [.i32]) { call in
            let percent = try call.i32(0)
            call.record([String(percent)])
            call.state.audioVolumePercent = min(max(percent, 0), 100)
            return []
        },
        StandIn("patch", "begin_background_task", [.i32, .i32], [.i32], .iOSFamilyOnly) { call in
            call.record([try call.string(0)])
            let token = call.state.nextBackgroundTaskToken
            call.state.nextBackgroundTaskToken = token &+ 1
            return [.int32(token)]
        },
        StandIn("patch", "pasteboard_get_string", [], [.i64], .iOSFamilyOnly) { call in
            call.record([])
            return try call.packed(call.state.pasteboardString)
        },
        StandIn("patch", "pasteboard_set_string", [.i32, .i32], [], .iOSFamilyOnly) { call in
            let text = try call.string(0)
            call.record([text])
            call.state.pasteboardString = text
            return []
        },
        StandIn("patch", "pasteboard_has_strings", [], [.i32], .iOSFamilyOnly) { call in
            call.record([])
            return [.bool(call.state.pasteboardString != nil)]
        },
        StandIn("patch", "get_brightness", [], [.i32], .iOSFamilyOnly) { call in
            call.record([])
            return [.int32(call.state.brightnessPercent)]
        },
        StandIn("patch", "set_brightness", [.i32], [], .iOSFamilyOnly) { call in
            let percent = try call.i32(0)
            call.record([String(percent)])
            call.state.brightnessPercent = min(max(percent, 0), 100)
            return []
        },
        StandIn("patch", "set_idle_timer_disabled", [.i32], [], .iOSFamilyOnly) { call in
            let flag = try call.i32(0)
            call.record([String(flag)])
            call.state.idleTimerDisabled = flag != 0
            return []
        },
    ]

    /// `patch.file_*` over the virtual `documents`/`caches` sandbox in `BridgeState.scopedFiles`.
    private static let scopedFileBridges: [StandIn] = [
        StandIn("patch", "file_write", [.i32, .i32, .i32, .i32, .i32, .i32], [.i32]) { call in
            let scope = try call.string(0)
            let path = try call.string(2)
            let data = try call.bytes(4)
            call.record([scope, path, "\(data.count) bytes"])
            guard isSandboxScope(scope), isSafeRelativePath(path) else { return [.bool(false)] }
            call.state.scopedFiles[scope, default: [:]][path] = data
            return [.bool(true)]
        },
        StandIn("patch", "file_read", [.i32, .i32, .i32, .i32], [.i64]) { call in
            let scope = try call.string(0)
            let path = try call.string(2)
            call.record([scope, path])
            guard isSandboxScope(scope), isSafeRelativePath(path) else { return [.i64(0)] }
            return try call.packed(call.state.scopedFiles[scope]?[path] ?? [])
        },
        StandIn("patch", "file_exists", [.i32, .i32, .i32, .i32], [.i32]) { call in
            let scope = try call.string(0)
            let path = try call.string(2)
            call.record([scope, path])
            guard isSandboxScope(scope), isSafeRelativePath(path) else { return [.bool(false)] }
            return [.bool(call.state.scopedFiles[scope]?[path] != nil)]
        },
        StandIn("patch", "file_delete", [.i32, .i32, .i32, .i32], [.i32]) { call in
            let scope = try call.string(0)
            let path = try call.string(2)
            call.record([scope, path])
            guard isSandboxScope(scope), isSafeRelativePath(path),
                call.state.scopedFiles[scope]?.removeValue(forKey: path) != nil
            else { return [.bool(false)] }
            return [.bool(true)]
        },
    ]

    private static func isSandboxScope(_ scope: String) -> Bool {
        scope == "documents" || scope == "caches"
    }

    /// The SDK rejects absolute paths and traversal; so does the stand-in.
    static func isSafeRelativePath(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/") else { return false }
        return !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0.isEmpty }
    }
}
