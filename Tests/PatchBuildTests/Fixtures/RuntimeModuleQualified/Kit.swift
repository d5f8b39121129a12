/// A package of the app's models (ACHNBrowserUI's `Backend`): `Category` is not Codable, so a value
/// mirror carries it; `Tag` and its nested `Style` are.
public enum Category: String, CaseIterable {
    case fish, bugs
}

public struct Tag: Codable {
    public var name: String

    public struct Style: Codable {
        public var bold: Bool
        public init(bold: Bool) { self.bold = bold }
    }

    public init(name: String) { self.name = name }
}

public typealias Tags = [Tag]
