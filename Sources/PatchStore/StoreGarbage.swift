import Foundation
import PatchManifest

/// Files in a store that nothing needs: what publishers killed mid-write leave behind.
public struct StoreLeftovers: Codable, Sendable, Equatable {
    /// Files under `targets/` that no targets metadata on disk lists (any version, committed or not).
    public var unreferencedTargets: [String]
    /// Temporary files (`.<name>.tmp-<uuid>`) and unfinished `release init` folders (`.patchcli/init-*`).
    public var temporaries: [String]

    public var all: [String] { (unreferencedTargets + temporaries).sorted() }
}

extension ReleaseStore {
    /// Finds leftovers without changing anything. A target file is kept when any `N.targets.json`
    /// on disk lists it, an uncommitted one of an interrupted publish included: only what no
    /// metadata version references is a leftover. A targets file that cannot be read or parsed is
    /// an error, never a reason to treat its targets as unreferenced.
    public func leftovers() throws(StoreError) -> StoreLeftovers {
        var referenced: Set<String> = []
        for name in files.list(StorePath.metadata) where name.hasSuffix(".\(TUFRole.targets.rawValue).json") && !name.hasPrefix(".") {
            let path = StorePath.metadataFile(name)
            let bytes = try files.read(path, limit: StoreLimits.targetsBytes)
            let targets: TargetsMetadata
            do { targets = try SignedEnvelope.parse(bytes).decode(TargetsMetadata.self) } catch { throw .invalidMetadata(path: path, error) }
            for (target, info) in targets.targets {
                if let sha256 = info.hashes["sha256"] { referenced.insert(StorePath.targetFile(target, sha256: sha256)) }
            }
        }
        var unreferenced: [String] = []
        var temporaries: [String] = []
        let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey, .isDirectoryKey])
        let prefix = base.path.hasSuffix("/") ? base.path : base.path + "/"
        while let url = enumerator?.nextObject() as? URL {
            let relative = String(url.standardizedFileURL.path.dropFirst(prefix.count))
            let name = url.lastPathComponent
            if relative.hasPrefix(".patchcli/init-"), !relative.dropFirst(".patchcli/".count).contains("/") {
                temporaries.append(relative)
                enumerator?.skipDescendants()
                continue
            }
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            if name.hasPrefix("."), name.contains(".tmp-") {
                temporaries.append(relative)
            } else if relative.hasPrefix("\(StorePath.targets)/"), !referenced.contains(relative) {
                unreferenced.append(relative)
            }
        }
        return StoreLeftovers(unreferencedTargets: unreferenced.sorted(), temporaries: temporaries.sorted())
    }

    /// Removes the leftovers under the publisher lock, so no publish is writing while they are
    /// found and removed, and only from a store whose current metadata verifies. Returns what was
    /// removed (relative paths).
    public func removeLeftovers() throws(StoreError) -> StoreLeftovers {
        let lock = try PublisherLock(files: files)
        defer { withExtendedLifetime(lock) {} }
        _ = try loadState(now: nil)
        let found = try leftovers()
        for path in found.all {
            do { try FileManager.default.removeItem(at: files.url(path)) } catch {
                throw .unwritable(path: path, reason: "cannot remove it: \(error.localizedDescription)")
            }
        }
        return found
    }
}
