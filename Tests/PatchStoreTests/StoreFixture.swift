import Foundation
import PatchManifest
@testable import PatchStore

/// A fresh, initialized release store in a temporary directory with one key per role.
struct StoreFixture {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    let directory: URL
    let store: ReleaseStore
    let keys: [TUFRole: SigningKey]

    var signers: RoleSigners { RoleSigners(keys.mapValues { [$0] }) }
    var options: PublishOptions { PublishOptions(now: Self.now) }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("patchstore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = ReleaseStore(directory: directory.path)
        var keys: [TUFRole: SigningKey] = [:]
        for role in TUFRole.allCases { keys[role] = SigningKey.generate() }
        self.keys = keys
        _ = try store.initialize(roleKeys: keys.mapValues(\.publicKey), signers: RoleSigners(keys.mapValues { [$0] }), options: PublishOptions(now: Self.now))
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    @discardableResult
    func publish(_ module: [UInt8], channel: String = "production", fingerprint: String = "fp-1", rollout: Int = 100, options: PublishOptions? = nil) throws -> ReleaseOutcome {
        try store.publish(
            module: module, request: PublishRequest(channel: channel, fingerprint: fingerprint, rolloutPercent: rollout),
            verifier: StructuralModuleVerifier(), signers: signers, options: options ?? self.options)
    }

    func verify(now: Date = StoreFixture.now, previousTimestamp: [UInt8]? = nil) throws -> VerifyReport {
        try store.verify(now: now, previousTimestamp: previousTimestamp, moduleVerifier: StructuralModuleVerifier())
    }

    func url(_ relative: String) -> URL { directory.appendingPathComponent(relative) }

    func read(_ relative: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: url(relative))) }

    func write(_ bytes: [UInt8], to relative: String) throws { try Data(bytes).write(to: url(relative)) }

    /// The file under `targets/` holding a target path (its consistent-snapshot name).
    func targetFile(_ targetPath: String) throws -> String {
        let state = try store.loadState(now: nil)
        guard let sha256 = state.targets.targets[targetPath]?.hashes["sha256"] else { throw FixtureError.noSuchTarget(targetPath) }
        return StorePath.targetFile(targetPath, sha256: sha256)
    }

    func currentCounter(_ channel: String = "production") throws -> Int? {
        try store.list(channel: nil, now: nil).first { $0.channel == channel }?.releaseCounter
    }
}

enum FixtureError: Error { case noSuchTarget(String) }

/// A wasm module that exports its memory, with a 60 KB custom section of seeded random bytes;
/// `edits` flips bytes in place, giving a "next version" that diffs well.
func sampleModule(seed: UInt64, edits: Int = 0) -> [UInt8] {
    var state = seed
    func next() -> UInt8 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return UInt8(truncatingIfNeeded: z ^ (z >> 31))
    }
    var payload = (0..<60_000).map { _ in next() }
    for index in 0..<edits { payload[1000 + index * 997] ^= 0xFF }
    let custom = [4] + Array("blob".utf8) + payload
    func leb(_ value: Int) -> [UInt8] {
        var value = value, out: [UInt8] = []
        repeat {
            var byte = UInt8(value & 0x7F)
            value >>= 7
            if value != 0 { byte |= 0x80 }
            out.append(byte)
        } while value != 0
        return out
    }
    let exports: [UInt8] = [1, 6] + Array("memory".utf8) + [2, 0]
    return [0x00, 0x61, 0x73, 0x6D, 1, 0, 0, 0] + [0] + leb(custom.count) + custom + [5, 3, 1, 0, 1] + [7] + leb(exports.count) + exports
}
