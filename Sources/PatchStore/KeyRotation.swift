import Foundation
import PatchManifest

extension ReleaseStore {
    /// Rotates one role's key: publishes root N+1 listing `newKey` for `role` (signed by a threshold
    /// of the current root keys and, for a root rotation, by the new root key too), and re-signs
    /// targets, snapshot and timestamp in the same commit. `signers` must hold the current root
    /// key(s) and the new key for its role; passing the old key as well dual-signs, so clients that
    /// have not yet fetched the new root still accept the new files.
    public func rotateKey(role: TUFRole, newKey: TUFKey, signers: RoleSigners, options: PublishOptions) throws(StoreError) -> PublishReceipt {
        try transact(signers: signers, options: options) { state throws(StoreError) in
            var root = state.root
            let retired = root.roles[role.rawValue]?.keyids ?? []
            root.version += 1
            root.expires = options.expiry.expires(.root, from: options.now)
            root.roles[role.rawValue] = RoleKeys(keyids: [newKey.keyid], threshold: 1)
            root.keys[newKey.keyid] = newKey
            // Drop keys no role lists any more, so root describes exactly the keys in use.
            let inUse = Set(root.roles.values.flatMap(\.keyids))
            for keyid in retired where !inUse.contains(keyid) { root.keys[keyid] = nil }
            return StoreChange(targetFiles: [:], newRoot: root)
        }.receipt
    }
}
