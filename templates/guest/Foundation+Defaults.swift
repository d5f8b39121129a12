// Guest Foundation layer (Foundation.swift): UserDefaults.standard over the SDK's defaults bridges:
// Bool, Int and Double through `patch_host.defaults_*` (sdk-contract §3.3), String through
// `patch.defaults_get`/`defaults_set`/`defaults_remove` (§3.5).

// MARK: - UserDefaults

struct UserDefaults {
    static let standard = UserDefaults(suite: nil)

    /// nil for `standard`.
    let _suite: String?

    private init(suite: String?) { _suite = suite }

    /// A suite names the store of an `@AppStorage(_:store:)` in a view (the host passes the stored value
    /// in the view's inputs, §5.4). The bridges serve `standard` only: reading or writing a suite
    /// traps, and the SDK runs the native implementation instead.
    init?(suiteName: String?) { _suite = suiteName ?? "" }

    func bool(forKey key: String) -> Bool {
        _standardOnly()
        return _patchWithUTF8(key) { patch_host_defaults_get_bool($0, $1) } == 1
    }

    func integer(forKey key: String) -> Int {
        _standardOnly()
        return Int(truncatingIfNeeded: _patchWithUTF8(key) { patch_host_defaults_get_int($0, $1) })
    }

    func double(forKey key: String) -> Double {
        _standardOnly()
        return Double(bitPattern: UInt64(bitPattern: _patchWithUTF8(key) { patch_host_defaults_get_double($0, $1) }))
    }

    /// nil when absent (the bridge does not tell an empty string from none).
    func string(forKey key: String) -> String? {
        _standardOnly()
        return _patchHostString(_patchWithUTF8(key) { patch_defaults_get($0, $1) })
    }

    func set(_ value: Bool, forKey key: String) {
        _standardOnly()
        _patchWithUTF8(key) { patch_host_defaults_set_bool($0, $1, value ? 1 : 0) }
    }

    func set(_ value: Int, forKey key: String) {
        _standardOnly()
        _patchWithUTF8(key) { patch_host_defaults_set_int($0, $1, Int64(value)) }
    }

    func set(_ value: Double, forKey key: String) {
        _standardOnly()
        _patchWithUTF8(key) { patch_host_defaults_set_double($0, $1, Int64(bitPattern: value.bitPattern)) }
    }

    /// A String, or nil to remove the key.
    func set(_ value: String?, forKey key: String) {
        _standardOnly()
        guard let value else { return removeObject(forKey: key) }
        _patchWithUTF8(key) { key, keyCount in
            _patchWithUTF8(value) { patch_defaults_set(key, keyCount, $0, $1) }
        }
    }

    func removeObject(forKey key: String) {
        _standardOnly()
        _patchWithUTF8(key) { patch_defaults_remove($0, $1) }
    }

    private func _standardOnly() {
        if _suite != nil { fatalError("UserDefaults(suiteName:) has no bridge: only UserDefaults.standard is served") }
    }
}
