// Guest Foundation layer (Foundation.swift): Bundle.main's Info.plist strings and resource paths
// over `patch_host.bundle_info_string` and `bundle_resource_path` (sdk-contract §3.3).

// MARK: - Bundle

struct Bundle {
    static let main = Bundle()

    private init() {}

    /// The Info.plist's String values by key. Embedded Swift has no `Any`, so the values are Strings:
    /// `infoDictionary?["CFBundleShortVersionString"] as? String` reads as it does natively, and a
    /// key whose value is not a String reads as nil.
    var infoDictionary: InfoDictionary? { InfoDictionary() }

    struct InfoDictionary {
        subscript(key: String) -> String? { Bundle.main.object(forInfoDictionaryKey: key) }
    }

    /// The Info.plist's String value for `key` (nil when absent or not a String).
    func object(forInfoDictionaryKey key: String) -> String? {
        _patchHostString(_patchWithUTF8(key) { patch_host_bundle_info_string($0, $1) })
    }

    var bundleIdentifier: String? { object(forInfoDictionaryKey: "CFBundleIdentifier") }

    /// nil for an empty or absent extension, as the SDK answers.
    func path(forResource name: String?, ofType ext: String?) -> String? {
        _patchWithUTF8(name ?? "") { name, nameCount in
            _patchHostString(_patchWithUTF8(ext ?? "") { patch_host_bundle_resource_path(name, nameCount, $0, $1) })
        }
    }
}
