/// What a shipped build contains, per declaration: the record `build` later diffs against to find
/// what changed, and the input of the build fingerprint. Written by `patchcli prepare` to
/// `.patch/baseline.json` in canonical JSON (docs/prepare.md "Baseline").
public struct Baseline: Sendable, Equatable {
    /// Version of this file's layout; bumped when a field changes meaning.
    public static let formatVersion: Int64 = 1

    public struct Declaration: Sendable, Equatable {
        public enum Kind: String, Sendable, CaseIterable, Codable {
            case function, method, initializer, computedProperty, viewBody, storedLayout
        }

        /// Stable across edits that do not rename or re-type the declaration:
        /// `<target>:<Type.path>.<name>(<label>:<type>,…)` for callables, `<target>:<Type.path>.<name>`
        /// for properties, `<target>:<Type.path>` for a stored layout.
        public var id: String
        public var kind: Kind
        /// SHA-256 (lowercase hex) of the declaration's token texts: whitespace and comments do not
        /// change it, any change to code does.
        public var contentHash: String
        /// The file that declares it, relative to the project root.
        public var file: String
        /// A view body's host tokens: what the shipped thunk passes (docs/views.md "Tokens and slots").
        /// A patch may read only these; written only when there are some, so baselines without them
        /// (and their fingerprints) stay as they were.
        public var tokens: [Token]
        /// What of it changes behaviour (docs/prepare.md "Behaviour"); nil in a baseline written
        /// before patchcli recorded it, whose changes are then judged by `contentHash` alone.
        public var behaviour: Behaviour?

        public init(id: String, kind: Kind, contentHash: String, file: String, tokens: [Token] = [], behaviour: Behaviour? = nil) {
            self.id = id
            self.kind = kind
            self.contentHash = contentHash
            self.file = file
            self.tokens = tokens.sorted { $0.id < $1.id }
            self.behaviour = behaviour
        }
    }

    /// The parts of a declaration `build` judges a change by, besides its full `contentHash`: a
    /// change that leaves `hash` equal changed no behaviour (docs/prepare.md "Behaviour").
    public struct Behaviour: Sendable, Equatable, Codable {
        /// SHA-256 of the token texts without the modifiers and attributes that have no runtime
        /// effect (and, for a stored layout, without its property observers, which are recorded
        /// with the property). Written to the file only when it differs from the full hash.
        public var hash: String
        /// The left-out modifiers and attributes as written (whitespace collapsed), in source order;
        /// a stored layout's as `property:item`. What `build` says changed when only they did.
        public var inert: [String]
        /// A callable's or computed property's calling convention, which the shipped thunk and native
        /// callers are compiled against beyond the id: `static`/`mutating`, parameter names, effects,
        /// result or property type (`static (cents) throws -> Int`).
        public var signature: String?
        /// A stored layout's hash of what decides the memory layout (names, types, order, wrappers and
        /// other attributes, `lazy`/`weak`, enum cases), without default values and `let`/`var`,
        /// which only the type's initializers act on.
        public var layout: String?
        /// A stored layout's stored properties, one entry per declaration in source order, so `build`
        /// can say which changed and whether a view's guest-held `@State` is all that did (docs/views.md
        /// "Changing a view's state"). Nil in a baseline written before patchcli recorded them.
        public var properties: [StoredMember]?

        public init(hash: String, inert: [String] = [], signature: String? = nil, layout: String? = nil, properties: [StoredMember]? = nil) {
            self.hash = hash
            self.inert = inert
            self.signature = signature
            self.layout = layout
            self.properties = properties
        }
    }

    /// One stored-property declaration of a type (`@State private var count = 0`; `var a, b: Int` is one).
    public struct StoredMember: Sendable, Equatable, Codable {
        /// The bound names, comma-separated.
        public var name: String
        /// The names of its attributes without arguments (`State`, `AppStorage`), in source order.
        public var attributes: [String]
        /// As written, or the type a literal default gives (`Int`); nil when neither says.
        public var type: String?
        /// First 16 hex digits of the hash of what the memory layout depends on (attributes with their
        /// arguments, modifiers, names, type), as `Behaviour.layout` covers it.
        public var layout: String
        /// First 16 hex digits of the hash of `let`/`var`, the names and the default values.
        public var value: String
        /// It is declared with a default value (`= 0`): not a parameter its parent must pass.
        public var hasDefault: Bool

        public init(name: String, attributes: [String], type: String?, layout: String, value: String, hasDefault: Bool) {
            self.name = name
            self.attributes = attributes
            self.type = type
            self.layout = layout
            self.value = value
            self.hasDefault = hasDefault
        }
    }

    /// One host token of a view's thunk (sdk-contract §5.1 `tokens:`).
    public struct Token: Sendable, Equatable, Hashable {
        /// The `PatchHostToken` case the thunk builds; `slot` is a native view the thunk passes in
        /// `slots:` (§5.1) and the IR places as an `opaque` node (§5.6.4); `json` is a `.string`
        /// token holding a Codable value's JSON (docs/views.md "Tokens and slots"), recorded apart
        /// from `string` so a read whose type changed between the two is a new host value.
        public enum Kind: String, Sendable {
            case string, number, color, font, slot, json
        }

        /// Content-stable: `st_`/`nt_`/`ct_`/`ft_`/`op_` and a hash of the view type and the expression.
        public var id: String
        public var kind: Kind
        /// The Swift expression the thunk evaluates on the view (`model.title`).
        public var expression: String

        public init(id: String, kind: Kind, expression: String) {
            self.id = id
            self.kind = kind
            self.expression = expression
        }
    }

    /// One overridable asset of the shipped app (a color, a localized string, an image, a JSON config
    /// file; docs/assets.md): what `build` compares to ship asset changes as a resource overlay.
    public struct Asset: Sendable, Equatable {
        /// `color:<name>`, `string:<locale>:<table>:<key>`, `image:<name>`, `config:<file name>`.
        public var id: String
        /// SHA-256 of the asset's own PROV encoding (what a device would be given).
        public var contentHash: String
        /// The file it was read from, relative to the project root.
        public var file: String

        public init(id: String, contentHash: String, file: String) {
            self.id = id
            self.contentHash = contentHash
            self.file = file
        }
    }

    /// Sorted by `id`, so the same sources always give the same bytes.
    public private(set) var declarations: [Declaration]
    /// The platforms the app ships a native build for, the default one (`build`'s) first
    /// (docs/prepare.md "Platforms"). Written only when it is not `[ios]`, so a baseline of an iOS
    /// app (and its fingerprint) is what it was before platforms were recorded.
    public var platforms: [AppPlatform]
    /// Sorted by `id`; written only when there are some, so a baseline of an app without asset
    /// sources (and one written before patchcli recorded assets) keeps its bytes and fingerprint.
    public private(set) var assets: [Asset]

    public init(declarations: [Declaration], platforms: [AppPlatform] = [.iOS], assets: [Asset] = []) {
        self.declarations = declarations.sorted { $0.id < $1.id }
        self.platforms = platforms.isEmpty ? [.iOS] : platforms
        self.assets = assets.sorted { $0.id < $1.id }
    }

    /// The content of `.patch/baseline.json`: canonical JSON (as `CanonicalJSON.serialize` writes it) of
    /// `{"assets":[{"file":…,"hash":…,"id":…},…],"declarations":[{"behaviour":{…},"file":…,"hash":…,"id":…,"kind":…},…],"format":1}`. Written straight to bytes,
    /// keys already in order: a tree of one small object per declaration (tens of thousands in a large
    /// app) cost `prepare` more than all of its sequential work.
    public var canonicalJSON: [UInt8] {
        var output = Array("{".utf8)
        for (index, asset) in assets.enumerated() {
            output += Array((index == 0 ? #""assets":[{"file":"# : #",{"file":"#).utf8)
            CanonicalJSON.appendString(asset.file, to: &output)
            output += Array(#","hash":"#.utf8)
            CanonicalJSON.appendString(asset.contentHash, to: &output)
            output += Array(#","id":"#.utf8)
            CanonicalJSON.appendString(asset.id, to: &output)
            output += Array((index == assets.count - 1 ? "}]," : "}").utf8)
        }
        output += Array(#""declarations":["#.utf8)
        output.reserveCapacity(declarations.reduce(64) { size, declaration in
            size + 48 + declaration.file.utf8.count + declaration.contentHash.utf8.count + declaration.id.utf8.count
                + declaration.kind.rawValue.utf8.count + (declaration.behaviour.map { 16 + ($0.signature?.utf8.count ?? 0) } ?? 0)
        })
        for (index, declaration) in declarations.enumerated() {
            output.append(contentsOf: (index == 0 ? "{" : ",{").utf8)
            if let behaviour = declaration.behaviour {
                // Keys in code point order; each part only when it says something.
                var separator = ""
                output += Array(#""behaviour":{"#.utf8)
                if behaviour.hash != declaration.contentHash {
                    output += Array(#""hash":"#.utf8)
                    CanonicalJSON.appendString(behaviour.hash, to: &output)
                    separator = ","
                }
                if !behaviour.inert.isEmpty {
                    output += Array((separator + #""inert":["#).utf8)
                    for (position, item) in behaviour.inert.enumerated() {
                        if position > 0 { output.append(UInt8(ascii: ",")) }
                        CanonicalJSON.appendString(item, to: &output)
                    }
                    output.append(UInt8(ascii: "]"))
                    separator = ","
                }
                if let layout = behaviour.layout {
                    output += Array((separator + #""layout":"#).utf8)
                    CanonicalJSON.appendString(layout, to: &output)
                    separator = ","
                }
                if let properties = behaviour.properties {
                    output += Array((separator + #""properties":["#).utf8)
                    for (position, member) in properties.enumerated() {
                        output += Array((position == 0 ? "{" : ",{").utf8)
                        if !member.attributes.isEmpty {
                            output += Array(#""attributes":["#.utf8)
                            for (index, attribute) in member.attributes.enumerated() {
                                if index > 0 { output.append(UInt8(ascii: ",")) }
                                CanonicalJSON.appendString(attribute, to: &output)
                            }
                            output += Array("],".utf8)
                        }
                        if member.hasDefault { output += Array(#""default":true,"#.utf8) }
                        output += Array(#""layout":"#.utf8)
                        CanonicalJSON.appendString(member.layout, to: &output)
                        output += Array(#","name":"#.utf8)
                        CanonicalJSON.appendString(member.name, to: &output)
                        if let type = member.type {
                            output += Array(#","type":"#.utf8)
                            CanonicalJSON.appendString(type, to: &output)
                        }
                        output += Array(#","value":"#.utf8)
                        CanonicalJSON.appendString(member.value, to: &output)
                        output.append(UInt8(ascii: "}"))
                    }
                    output.append(UInt8(ascii: "]"))
                    separator = ","
                }
                if let signature = behaviour.signature {
                    output += Array((separator + #""signature":"#).utf8)
                    CanonicalJSON.appendString(signature, to: &output)
                }
                output += Array("},".utf8)
            }
            output += Array(#""file":"#.utf8)
            CanonicalJSON.appendString(declaration.file, to: &output)
            output += Array(#","hash":"#.utf8)
            CanonicalJSON.appendString(declaration.contentHash, to: &output)
            output += Array(#","id":"#.utf8)
            CanonicalJSON.appendString(declaration.id, to: &output)
            output += Array(#","kind":"#.utf8)
            CanonicalJSON.appendString(declaration.kind.rawValue, to: &output)
            for (position, token) in declaration.tokens.enumerated() {
                output += Array((position == 0 ? #","tokens":[{"expression":"# : #",{"expression":"#).utf8)
                CanonicalJSON.appendString(token.expression, to: &output)
                output += Array(#","id":"#.utf8)
                CanonicalJSON.appendString(token.id, to: &output)
                output += Array(#","kind":"#.utf8)
                CanonicalJSON.appendString(token.kind.rawValue, to: &output)
                output.append(UInt8(ascii: "}"))
            }
            if !declaration.tokens.isEmpty { output.append(UInt8(ascii: "]")) }
            output.append(UInt8(ascii: "}"))
        }
        output += Array(#"],"format":\#(Self.formatVersion)"#.utf8)
        if platforms != [.iOS] {
            output += Array(#","platforms":["#.utf8)
            for (position, platform) in platforms.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                CanonicalJSON.appendString(platform.rawValue, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        }
        output.append(UInt8(ascii: "}"))
        return output
    }

    public enum DecodingFailure: Error, CustomStringConvertible {
        case notABaseline(reason: String)
        case unsupportedFormat(Int64)

        public var description: String {
            switch self {
            case let .notABaseline(reason): return "not a Patch baseline: \(reason); run `patchcli prepare` to write it again"
            case let .unsupportedFormat(version): return "baseline format \(version) is newer than this patchcli understands (\(Baseline.formatVersion)); update patchcli"
            }
        }
    }

    /// Reads a baseline back from its JSON value (the parsed `canonicalJSON`).
    public init(json: JSONValue) throws(DecodingFailure) {
        guard case let .object(root) = json else { throw .notABaseline(reason: "the top level is not an object") }
        guard case let .integer(format)? = root["format"] else { throw .notABaseline(reason: "\"format\" is missing") }
        guard format <= Self.formatVersion else { throw .unsupportedFormat(format) }
        guard case let .array(entries)? = root["declarations"] else { throw .notABaseline(reason: "\"declarations\" is missing") }
        var platforms: [AppPlatform] = [.iOS]
        if let listed = root["platforms"] {
            guard case let .array(names) = listed, !names.isEmpty else { throw .notABaseline(reason: "\"platforms\" is not a non-empty array") }
            platforms = try names.map { name throws(DecodingFailure) in
                guard case let .string(text) = name, let platform = AppPlatform(rawValue: text) else {
                    throw .notABaseline(reason: "\"platforms\" holds \(name), not one of \(AppPlatform.list(AppPlatform.allCases))")
                }
                return platform
            }
        }
        var declarations: [Declaration] = []
        for (index, entry) in entries.enumerated() {
            guard case let .object(fields) = entry,
                  case let .string(id)? = fields["id"],
                  case let .string(kindName)? = fields["kind"], let kind = Declaration.Kind(rawValue: kindName),
                  case let .string(hash)? = fields["hash"],
                  case let .string(file)? = fields["file"]
            else { throw .notABaseline(reason: "declarations[\(index)] lacks id, kind, hash or file") }
            var tokens: [Token] = []
            if case let .array(entries)? = fields["tokens"] {
                for entry in entries {
                    guard case let .object(token) = entry, case let .string(tokenID)? = token["id"],
                          case let .string(kindName)? = token["kind"], let tokenKind = Token.Kind(rawValue: kindName),
                          case let .string(expression)? = token["expression"]
                    else { throw .notABaseline(reason: "declarations[\(index)].tokens has an entry without id, kind or expression") }
                    tokens.append(Token(id: tokenID, kind: tokenKind, expression: expression))
                }
            }
            var behaviour: Behaviour?
            if let value = fields["behaviour"] {
                guard case let .object(parts) = value else { throw .notABaseline(reason: "declarations[\(index)].behaviour is not an object") }
                var inert: [String] = []
                if let items = parts["inert"] {
                    guard case let .array(entries) = items else { throw .notABaseline(reason: "declarations[\(index)].behaviour.inert is not an array") }
                    for entry in entries {
                        guard case let .string(item) = entry else { throw .notABaseline(reason: "declarations[\(index)].behaviour.inert holds a non-string") }
                        inert.append(item)
                    }
                }
                func text(_ key: String) throws(DecodingFailure) -> String? {
                    switch parts[key] {
                    case nil: return nil
                    case let .string(text)?: return text
                    default: throw .notABaseline(reason: "declarations[\(index)].behaviour.\(key) is not a string")
                    }
                }
                var properties: [StoredMember]?
                if let items = parts["properties"] {
                    guard case let .array(entries) = items else { throw .notABaseline(reason: "declarations[\(index)].behaviour.properties is not an array") }
                    properties = []
                    for entry in entries {
                        guard case let .object(member) = entry, case let .string(name)? = member["name"],
                              case let .string(layout)? = member["layout"], case let .string(value)? = member["value"]
                        else { throw .notABaseline(reason: "declarations[\(index)].behaviour.properties has an entry without name, layout or value") }
                        var attributes: [String] = []
                        if case let .array(names)? = member["attributes"] {
                            for case let .string(attribute) in names { attributes.append(attribute) }
                        }
                        var type: String?
                        if case let .string(written)? = member["type"] { type = written }
                        properties?.append(StoredMember(name: name, attributes: attributes, type: type, layout: layout, value: value,
                                                        hasDefault: member["default"] == .bool(true)))
                    }
                }
                behaviour = Behaviour(hash: try text("hash") ?? hash, inert: inert, signature: try text("signature"), layout: try text("layout"),
                                      properties: properties)
            }
            declarations.append(Declaration(id: id, kind: kind, contentHash: hash, file: file, tokens: tokens, behaviour: behaviour))
        }
        var assets: [Asset] = []
        if let value = root["assets"] {
            guard case let .array(entries) = value else { throw .notABaseline(reason: "\"assets\" is not an array") }
            for (index, entry) in entries.enumerated() {
                guard case let .object(fields) = entry, case let .string(id)? = fields["id"], case let .string(hash)? = fields["hash"],
                      case let .string(file)? = fields["file"]
                else { throw .notABaseline(reason: "assets[\(index)] lacks id, hash or file") }
                assets.append(Asset(id: id, contentHash: hash, file: file))
            }
        }
        self.init(declarations: declarations, platforms: platforms, assets: assets)
    }
}

/// The native build's identity as devices report it (`fingerprint`, sdk-contract §7.1, §7.7): the
/// backend offers a module only to the binary it was built against. It changes whenever any
/// declaration of the baseline changes, or the call ABI or view IR version the build targets.
public enum BuildFingerprint {
    /// The export calling convention modules are built for (`callPacked`, sdk-contract §2.4).
    public static let abiVersion: Int64 = 1
    /// The newest ViewNode IR schema the SDK accepts (sdk-contract §5.5).
    public static let irSchemaVersion: Int64 = 6

    /// SHA-256 (lowercase hex) of the canonical JSON
    /// `{"abiVersion":1,"baselineSHA256":"<sha256 of the baseline bytes>","irSchemaVersion":6}`,
    /// with `"platform":"<raw value>"` added for a platform other than iOS: the macOS and iOS
    /// binaries of one app are different builds (other `#if` branches), so a module built for
    /// one must never be offered to the other.
    public static func compute(baseline: Baseline, platform: AppPlatform = .iOS) -> String {
        compute(canonicalBaseline: baseline.canonicalJSON, platform: platform)
    }

    /// The same, from the baseline's canonical bytes when the caller already has them.
    public static func compute(canonicalBaseline: [UInt8], platform: AppPlatform = .iOS) -> String {
        var input: [String: JSONValue] = [
            "abiVersion": .integer(abiVersion),
            "baselineSHA256": .string(SHA256Hasher.hex(of: canonicalBaseline)),
            "irSchemaVersion": .integer(irSchemaVersion),
        ]
        if platform != .iOS { input["platform"] = .string(platform.rawValue) }
        return SHA256Hasher.hex(of: CanonicalJSON.serialize(.object(input)))
    }
}
