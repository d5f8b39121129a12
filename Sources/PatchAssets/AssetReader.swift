import Foundation
import PatchManifest

/// Finds the asset sources under a project's asset roots and reads them into validated overlay
/// entries (docs/assets.md): `*.xcassets` colorsets and imagesets (folders that provide a namespace
/// prefix their children's names, as Xcode does), `*.lproj/*.strings`, `*.xcstrings`, and the JSON
/// config files patch.json lists.
public enum AssetReader {
    /// Folders never searched: build products, dependencies, patchcli's own state.
    static let skippedFolders: Set<String> = [".build", ".patch", ".git", "Pods", "Carthage", "DerivedData", "node_modules", "build"]

    /// - Parameters:
    ///   - root: the project root; every reported path is relative to it.
    ///   - roots: the folders to search, relative to `root`.
    public static func read(root: String, roots: [String], configFiles: [ProjectConfig.ConfigFile] = []) -> AssetInventory {
        var collector = Collector(root: root)
        var seen: Set<String> = []
        for folder in roots.sorted() {
            collector.walk(relative: folder.hasSuffix("/") ? String(folder.dropLast()) : folder, seen: &seen)
        }
        for config in configFiles { collector.readConfig(config) }
        collector.checkFormatSpecifiers()
        return AssetInventory(entries: collector.entries, errors: collector.errors, unshippable: collector.unshippable)
    }

    /// The asset roots of a project: `assets.roots`, else the app target's source roots.
    public static func roots(of config: ProjectConfig) -> [String] {
        config.assets?.roots ?? config.targets.first { $0.name == config.appTarget }?.sourceRoots ?? []
    }

    private struct Collector {
        let root: String
        var entries: [AssetEntry] = []
        var errors: [AssetFinding] = []
        var unshippable: [AssetFinding] = []
        /// id → index in `entries`, to report an asset defined twice.
        var indexByID: [String: Int] = [:]

        init(root: String) { self.root = root }

        func absolute(_ relative: String) -> String { relative.isEmpty || relative == "." ? root : root + "/" + relative }

        func children(_ relative: String) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: absolute(relative))) ?? []).sorted()
        }

        func isDirectory(_ relative: String) -> Bool {
            var directory: ObjCBool = false
            return FileManager.default.fileExists(atPath: absolute(relative), isDirectory: &directory) && directory.boolValue
        }

        func read(_ relative: String) -> [UInt8]? {
            FileManager.default.contents(atPath: absolute(relative)).map(Array.init)
        }

        static func join(_ folder: String, _ name: String) -> String { folder.isEmpty || folder == "." ? name : folder + "/" + name }

        mutating func walk(relative folder: String, seen: inout Set<String>) {
            guard seen.insert(folder).inserted else { return }
            for name in children(folder) where !name.hasPrefix(".") && !AssetReader.skippedFolders.contains(name) {
                let path = Self.join(folder, name)
                if name.hasSuffix(".xcassets"), isDirectory(path) {
                    readCatalogFolder(path, namespace: "")
                } else if name.hasSuffix(".lproj"), isDirectory(path) {
                    let locale = String(name.dropLast(".lproj".count))
                    for file in children(path) where file.hasSuffix(".strings") {
                        readStringsFile(Self.join(path, file), locale: locale == "Base" ? "" : locale, table: String(file.dropLast(".strings".count)))
                    }
                } else if name.hasSuffix(".xcstrings") {
                    readStringCatalog(path, table: String(name.dropLast(".xcstrings".count)))
                } else if isDirectory(path) {
                    walk(relative: path, seen: &seen)
                }
            }
        }

        mutating func add(_ entry: AssetEntry) {
            if let existing = indexByID[entry.id] {
                // The same asset in two catalogs (an app and its extension often share one) is fine
                // when both say the same; otherwise which one the device's override replaces is unclear.
                guard entries[existing].value != entry.value else { return }
                errors.append(AssetFinding(id: "\(entry.id)@\(entry.file)", source: Array(entry.contentHash.utf8),
                                           issue: AssetIssue(file: entry.file, key: entry.id, reason: "also defined, differently, in \(entries[existing].file)")))
                return
            }
            indexByID[entry.id] = entries.count
            entries.append(entry)
        }

        // MARK: asset catalogs

        mutating func readCatalogFolder(_ folder: String, namespace: String) {
            for name in children(folder) where !name.hasPrefix(".") {
                let path = Self.join(folder, name)
                guard isDirectory(path) else { continue }
                if name.hasSuffix(".colorset") {
                    readColorSet(path, name: namespace + String(name.dropLast(".colorset".count)))
                } else if name.hasSuffix(".imageset") {
                    readImageSet(path, name: namespace + String(name.dropLast(".imageset".count)))
                } else if !name.contains(".") {
                    // A plain group folder; with "provides-namespace" its name prefixes its assets'.
                    let contents = read(Self.join(path, "Contents.json")).flatMap { try? JSONSerialization.jsonObject(with: Data($0)) } as? [String: Any]
                    let namespaced = (contents?["properties"] as? [String: Any])?["provides-namespace"] as? Bool == true
                    readCatalogFolder(path, namespace: namespaced ? namespace + name + "/" : namespace)
                }
                // Other set types (appiconset, symbolset, dataset, …) are not overridable by PROV.
            }
        }

        mutating func readColorSet(_ folder: String, name: String) {
            let file = Self.join(folder, "Contents.json")
            guard let bytes = read(file) else {
                errors.append(AssetFinding(id: "color:\(name)", source: [], issue: AssetIssue(file: folder, key: name, reason: "no Contents.json")))
                return
            }
            switch ColorSetReader.read(bytes, name: name, file: file) {
            case let .success(color):
                let summary = color.light.hex + (color.dark.map { " (dark \($0.hex))" } ?? "")
                add(AssetEntry(id: "color:\(name)", kind: .color, file: file, value: .color(color), summary: summary))
            case let .failure(issue):
                if issue.reason.hasPrefix("refers to the system color") {
                    unshippable.append(AssetFinding(id: "color:\(name)", source: bytes, issue: issue))
                } else {
                    errors.append(AssetFinding(id: "color:\(name)", source: bytes, issue: issue))
                }
            case nil:
                // A color with no components (Xcode's empty AccentColor): nothing to override.
                break
            }
        }

        mutating func readImageSet(_ folder: String, name: String) {
            let file = Self.join(folder, "Contents.json")
            let bytes = read(file) ?? []
            func fail(_ path: String, _ reason: String, source: [UInt8]) {
                errors.append(AssetFinding(id: "image:\(name)", source: bytes + source, issue: AssetIssue(file: path, key: name, reason: reason)))
            }
            guard let contents = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any],
                  let images = contents["images"] as? [[String: Any]]
            else { return fail(file, "Contents.json is missing or has no \"images\" array", source: []) }
            // PROV's lookup is by name: the largest universal scale ships and UIImage scales it.
            let candidates = images.compactMap { image -> (file: String, scale: UInt8)? in
                guard let filename = image["filename"] as? String, (image["idiom"] as? String ?? "universal") == "universal" else { return nil }
                let scale = UInt8((image["scale"] as? String ?? "1x").dropLast()) ?? 1
                return (filename, scale)
            }
            guard let chosen = candidates.max(by: { $0.scale < $1.scale }) else { return }
            let imagePath = Self.join(folder, chosen.file)
            let lowered = chosen.file.lowercased()
            guard lowered.hasSuffix(".png") || lowered.hasSuffix(".jpg") || lowered.hasSuffix(".jpeg") else {
                unshippable.append(AssetFinding(id: "image:\(name)", source: read(imagePath) ?? bytes, issue: AssetIssue(
                    file: imagePath, key: name, reason: "only PNG and JPEG images are validated and shipped; \((chosen.file as NSString).pathExtension) needs an app release")))
                return
            }
            guard let payload = read(imagePath) else { return fail(imagePath, "Contents.json names \(chosen.file), which does not exist", source: []) }
            switch ImageValidator.validate(payload) {
            case let .success(decoded):
                let image = ResourceOverlay.Image(name: name, scale: chosen.scale, mime: decoded.mime, payload: payload)
                add(AssetEntry(id: "image:\(name)", kind: .image, file: imagePath, value: .bytes(image),
                               summary: "\(decoded.width)×\(decoded.height) px @\(chosen.scale)x \(decoded.mime), \(payload.count) bytes"))
            case let .failure(failure):
                fail(imagePath, failure.reason, source: payload)
            }
        }

        // MARK: strings

        mutating func addString(file: String, locale: String, table: String, key: String, value: String) {
            add(AssetEntry(id: "string:\(locale):\(table):\(key)", kind: .string, file: file,
                           value: .string(locale: locale, .init(key: key, value: value, table: table)), summary: value))
        }

        mutating func readStringsFile(_ file: String, locale: String, table: String) {
            guard let bytes = read(file) else { return }
            switch StringsFileParser.parse(bytes) {
            case let .success(parsed):
                for entry in parsed { addString(file: file, locale: locale, table: table, key: entry.key, value: entry.value) }
            case let .failure(failure):
                errors.append(AssetFinding(id: "file:\(file)", source: bytes, issue: AssetIssue(file: file, line: failure.line, key: failure.key, reason: failure.reason)))
            }
        }

        mutating func readStringCatalog(_ file: String, table: String) {
            guard let bytes = read(file) else { return }
            switch StringCatalogReader.read(bytes) {
            case let .success(catalog):
                for entry in catalog.entries { addString(file: file, locale: entry.locale, table: table, key: entry.key, value: entry.value) }
                for item in catalog.unshippable {
                    unshippable.append(AssetFinding(id: "string:\(item.locale):\(table):\(item.key)", source: item.source,
                                                        issue: AssetIssue(file: file, key: "\(item.locale):\(item.key)", reason: item.reason)))
                }
            case let .failure(failure):
                errors.append(AssetFinding(id: "file:\(file)", source: bytes, issue: AssetIssue(file: file, key: failure.key, reason: failure.reason)))
            }
        }

        /// Every locale's value of a (table, key) must consume the same arguments.
        mutating func checkFormatSpecifiers() {
            var byKey: [String: [(locale: String, file: String, value: String, arguments: [Int: String])]] = [:]
            for entry in entries {
                guard case let .string(locale, string) = entry.value else { continue }
                byKey["\(string.table):\(string.key)", default: []].append((locale, entry.file, string.value, FormatSpecifiers.arguments(of: string.value)))
            }
            for (id, values) in byKey.sorted(by: { $0.key < $1.key }) {
                guard let first = values.first, let other = values.first(where: { $0.arguments != first.arguments }) else { continue }
                let key = String(id.drop { $0 != ":" }.dropFirst())
                // Hashed over every locale's value: editing any translation of the key makes it news.
                let source = Array(values.map { "\($0.locale)=\($0.value)" }.joined(separator: "\u{0}").utf8)
                errors.append(AssetFinding(id: "format:\(id)", source: source, issue: AssetIssue(file: other.file, key: key, reason:
                    "format specifiers differ between locales: \(first.locale.isEmpty ? "Base" : first.locale) has \(FormatSpecifiers.describe(first.arguments)), \(other.locale.isEmpty ? "Base" : other.locale) has \(FormatSpecifiers.describe(other.arguments))")))
            }
        }

        // MARK: JSON config

        mutating func readConfig(_ config: ProjectConfig.ConfigFile) {
            let name = (config.path as NSString).lastPathComponent
            let bytes = read(config.path) ?? []
            func fail(_ file: String, _ reason: String) {
                errors.append(AssetFinding(id: "config:\(name)", source: bytes, issue: AssetIssue(file: file, key: name, reason: reason)))
            }
            guard FileManager.default.fileExists(atPath: absolute(config.path)) else { return fail(config.path, "patch.json lists this config file, which does not exist") }
            let document: SchemaJSON
            do {
                document = try SchemaJSON.parse(String(decoding: bytes, as: UTF8.self))
            } catch {
                fail(config.path, "not valid JSON: \(error)")
                return
            }
            if let schemaPath = config.schema {
                guard let schemaBytes = read(schemaPath), let schema = try? SchemaJSON.parse(String(decoding: schemaBytes, as: UTF8.self)) else {
                    fail(schemaPath, "the JSON Schema patch.json names is missing or not valid JSON")
                    return
                }
                let violations = JSONSchemaSubset(root: schema).errors(document)
                guard violations.isEmpty else {
                    fail(config.path, "does not satisfy \(schemaPath): \(violations.joined(separator: "; "))")
                    return
                }
            }
            let image = ResourceOverlay.Image(name: name, scale: 1, mime: "application/json", payload: bytes)
            add(AssetEntry(id: "config:\(name)", kind: .config, file: config.path, value: .bytes(image), summary: "application/json, \(bytes.count) bytes"))
        }
    }
}
