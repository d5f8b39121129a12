import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import PatchManifest
import PatchServer
import PatchStore
import WAT

/// A fresh signed store and event database in a temporary directory, and the server over them.
struct ServerFixture {
    let directory: URL
    let store: ReleaseStore
    let signers: RoleSigners
    let events: EventDatabase
    let server: UpdateServer

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("patchserve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = ReleaseStore(directory: directory.appendingPathComponent("store").path)
        var keys: [TUFRole: SigningKey] = [:]
        for role in TUFRole.allCases { keys[role] = SigningKey.generate() }
        signers = RoleSigners(keys.mapValues { [$0] })
        _ = try store.initialize(roleKeys: keys.mapValues(\.publicKey), signers: signers, options: PublishOptions())
        events = try EventDatabase(path: directory.appendingPathComponent("events.sqlite").path, create: true)
        server = UpdateServer(store: store, events: events)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    @discardableResult
    func publish(answer: Int32, channel: String = "production", fingerprint: String = "fp-1", rollout: Int = 100, cohort: String? = nil) throws -> ReleaseRecord {
        let outcome = try store.publish(
            module: try guestModule(answer: answer),
            request: PublishRequest(channel: channel, fingerprint: fingerprint, rolloutPercent: rollout, cohort: cohort),
            verifier: StructuralModuleVerifier(), signers: signers, options: PublishOptions())
        return outcome.records[0]
    }

    func setRollout(_ percent: Int, channel: String = "production") throws {
        _ = try store.setRollout(channel: channel, fingerprint: nil, percent: percent, signers: signers, options: PublishOptions())
    }

    func disable(channel: String = "production") throws {
        _ = try store.disable(channel: channel, fingerprint: nil, signers: signers, options: PublishOptions())
    }

    var application: some ApplicationProtocol { server.application(host: "127.0.0.1", port: 0) }

    /// Records `deviceID` (of `sdkCheckBody`'s app key) as a device whose only OTA module is
    /// `version`, its first update on a fresh install: its SDK patches that version, so a diff from
    /// it is offered. A device `serve` never saw has an unknown previous slot and gets no diff.
    func deviceInstalledFirst(_ version: String, deviceID: String = "device-1") throws {
        try events.saveDeviceSlots(DeviceSlots(current: version, previous: .empty), deviceID: deviceID, appKey: "demo-app", at: "2026-11-27T08:00:00Z")
    }
}

/// A guest exporting `memory` and `answer() -> i32`, plus 24 KB of fixed pseudo-random data that
/// brotli cannot shrink, so a BSDIFF40 patch between two answers is far smaller than the download
/// and the store keeps it.
func guestModule(answer: Int32) throws -> [UInt8] {
    var state: UInt64 = 0x5EED
    var data = ""
    for _ in 0..<24_000 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        data += String(format: "\\%02x", UInt8(truncatingIfNeeded: state >> 56))
    }
    return try wat2wasm("""
        (module
          (memory (export "memory") 1)
          (data (i32.const 1024) "\(data)")
          (func (export "answer") (result i32) i32.const \(answer)))
        """)
}

/// The SDK's check request body as `UpdateCheckRequest` encodes it (sdk-contract §7.2), every key.
func sdkCheckBody(currentVersion: String = "0.0.0", fingerprint: String = "fp-1", deviceID: String = "device-1",
                  channel: String = "production", cohort: String? = nil) -> String {
    var fields = [
        #""current_version":"\#(currentVersion)""#, #""fingerprint":"\#(fingerprint)""#, #""device_id":"\#(deviceID)""#,
        #""app_id":"5f0c6c2e-9d1a-4c1b-8a0e-2f3c4d5e6f70""#, #""app_key":"demo-app""#, #""os_version":"17.4.0""#,
        #""app_version":"1.0""#, #""sdk_version":"1.2.0""#, #""channel":"\#(channel)""#,
    ]
    if let cohort { fields.append(#""cohort":"\#(cohort)""#) }
    return "{\(fields.joined(separator: ","))}"
}

let jsonHeaders: HTTPFields = [.contentType: "application/json"]

extension TestClientProtocol {
    func check(_ body: String) async throws -> UpdateCheckResponse {
        let response = try await execute(uri: UpdateServer.checkPath, method: .post, headers: jsonHeaders, body: ByteBuffer(string: body))
        guard response.status == .ok else { throw UnexpectedStatus(status: response.status, body: String(buffer: response.body)) }
        return try JSONDecoder().decode(UpdateCheckResponse.self, from: Data(response.body.readableBytesView))
    }

    /// Posts a body and returns the status and the `reason` of a JSON error answer.
    func post(_ path: String, _ body: String, headers: HTTPFields = jsonHeaders) async throws -> (status: HTTPResponse.Status, reason: String?) {
        let response = try await execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: body))
        let object = try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
        return (response.status, object?["reason"] as? String)
    }
}

struct UnexpectedStatus: Error, CustomStringConvertible {
    let status: HTTPResponse.Status
    let body: String
    var description: String { "HTTP \(status.code): \(body)" }
}
