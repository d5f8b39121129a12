import Foundation

/// A `.xcstrings` string catalog (the JSON Xcode 15 writes): every key's per-locale `stringUnit` is
/// an override; `variations` (plural, device) and `substitutions` have no slot in PROV's flat
/// key → value tables, so they are reported as needing an app release instead of being dropped.
enum StringCatalogReader {
    struct Catalog {
        var entries: [(locale: String, key: String, value: String)] = []
        /// `source`: the localization's JSON (sorted keys), what its baseline hash covers.
        var unshippable: [(locale: String, key: String, reason: String, source: [UInt8])] = []
    }

    static func read(_ bytes: [UInt8]) -> Result<Catalog, StringsFileParser.Failure> {
        guard let root = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else {
            return .failure(.init(line: 1, reason: "not a JSON object (a string catalog is JSON)"))
        }
        guard let strings = root["strings"] as? [String: Any] else {
            return .failure(.init(line: 1, reason: "no \"strings\" object"))
        }
        var catalog = Catalog()
        for key in strings.keys.sorted() {
            guard let localizations = (strings[key] as? [String: Any])?["localizations"] as? [String: Any] else { continue }
            for locale in localizations.keys.sorted() {
                guard let localization = localizations[locale] as? [String: Any] else {
                    return .failure(.init(line: 1, key: key, reason: "localization \(locale) is not an object"))
                }
                if localization["variations"] != nil || localization["substitutions"] != nil {
                    let what = localization["variations"] != nil ? "plural/device variations" : "substitutions"
                    let source = (try? JSONSerialization.data(withJSONObject: localization, options: [.sortedKeys])).map(Array.init) ?? []
                    catalog.unshippable.append((locale, key, "\(what) cannot ride a PROV overlay (it holds one value per key); needs an app release", source))
                    continue
                }
                guard let unit = localization["stringUnit"] as? [String: Any], let value = unit["value"] as? String else {
                    return .failure(.init(line: 1, key: key, reason: "localization \(locale) has no stringUnit value"))
                }
                catalog.entries.append((locale, key, value))
            }
        }
        return .success(catalog)
    }
}
