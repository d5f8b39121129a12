import Foundation
import PatchManifest

extension ReleaseStore {
    /// Rotates one role's key: publishes root N+1 listing `newKey` for `role` (signed by a threshold
    /// of the current root keys and, for a root rotation, by the new root key too), and re-signs
    /// targets, snapshot and timestamp in the same commit. `signers` must hold the current root
    /// key(s) and the new key for its role; passing the old key as well dual-signs, so clients that
    /// have not yet fetched the new root still accept the new files.
    public func rotateKey(role: TUFRole, newKey: TUFKey, signers: RoleSigners, options: PublishOptions) throws(StoreError) -> PublishReceipt {
        let current = try loadState(now: nil).root
        var next = current
        let retired = next.roles[role.rawValue]?.keyids ?? []
        next.version += 1
        next.expires = options.expiry.expires(.root, from: options.now)
        next.roles[role.rawValue] = RoleKeys(keyids: [newKey.keyid], threshold: 1)
        next.keys[newKey.keyid] = newKey
        // Drop keys no role lists any more, so root describes exactly the keys in use.
        let inUse = Set(next.roles.values.flatMap(\.keyids))
        for keyid in retired where !inUse.contains(keyid) { next.keys[keyid] = nil }

        // Phase 1, for an online role whose old key is at hand: commit metadata signed by the old
        // AND the new key under the current root. Whatever happens after root N+1 appears, the
        // timestamp and snapshot being served are then valid under both roots, so a crash between
        // the root write and the final commit cannot freeze clients (notes §5.4 step 5, §6 H63).
        let signerIDs = Set(signers.keys(for: role).map(\.keyid))
        if role != .root, !Set(retired).isDisjoint(with: signerIDs), signerIDs.contains(newKey.keyid) {
            _ = try transact(signers: signers, options: options, alsoAccepting: next) { _ throws(StoreError) in StoreChange() }
        }
        return try transact(signers: signers, options: options) { state throws(StoreError) in
            guard state.root == current else { throw .concurrentCommit(path: StorePath.metadataFile(TUFRole.root.fileName(version: state.root.version))) }
            return StoreChange(targetFiles: [:], newRoot: next)
        }.receipt
    }
}
