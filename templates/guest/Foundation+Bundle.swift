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

    @available(*, unavailable, message: "a Swift package's resource bundle is not the app's: the SDK reads only Bundle.main (sdk-contract §3.3), and the IR's localized text and asset image name no bundle (styledText, bundleImage, §5.6.4), so Bundle.module stays native")
    static var module: Bundle { fatalError("unavailable") }

    /// nil for an empty or absent extension, as the SDK answers.
    func path(forResource name: String?, ofType ext: String?) -> String? {
        _patchWithUTF8(name ?? "") { name, nameCount in
            _patchHostString(_patchWithUTF8(ext ?? "") { patch_host_bundle_resource_path(name, nameCount, $0, $1) })
        }
    }
}

// MARK: - Localized strings

/// The app's strings tables are read natively only: the SDK has no bridge that looks a key up
/// (sdk-contract §3), so a String made from one cannot be computed in the guest. A `Text` of a
/// `LocalizedStringKey` lowers instead: the host looks its key up (docs/views.md).
@available(*, unavailable, message: "NSLocalizedString looks the key up in the app's strings tables, which the guest cannot read (sdk-contract §3 has no bridge for it): stays native; Text(LocalizedStringKey(key)) lowers, the host looking the key up")
func NSLocalizedString(_ key: String, tableName: String? = nil, bundle: Bundle = .main, value: String = "", comment: String) -> String {
    fatalError("unavailable")
}
