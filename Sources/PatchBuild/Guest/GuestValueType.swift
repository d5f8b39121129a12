import SwiftSyntax

/// A type the generated JSON glue can carry across the packed ABI, in JSONEncoder's shapes.
indirect enum GuestValueType: Hashable, Sendable {
    case int, int64, int32, double, bool, string
    /// A one-character String (only a view's inputs carry one: Character is not Codable).
    case character
    case optional(GuestValueType)
    case array(GuestValueType)
    /// `Set<Element>`, a JSON array.
    case set(GuestValueType)
    /// `Range<Bound>` or `ClosedRange<Bound>`: `{"lowerBound":…,"upperBound":…}` in a view's inputs,
    /// `[lower,upper]` from JSONEncoder.
    case range(GuestValueType, closed: Bool)
    /// `[Key: Value]`: a JSON object for String and Int keys, an array for any other key (the
    /// prelude's Dictionary codec).
    case dictionary(key: GuestValueType, value: GuestValueType)
    /// A struct or enum of the project (index into `GuestSourceIndex.types`).
    case project(Int)
    /// A guest type standing in for a framework one: the Foundation layer's (`foundationLayer`,
    /// templates/guest/Foundation*.swift), in any signature, or the view DSL's (`viewStandIns`:
    /// `UUID`, `URL`, the CoreGraphics structs), which only view inputs use. Each reads the
    /// encoding of the call it is in (a Date counts from 2001 in `callJSON`, §2.4, and from 1970 in
    /// a view's inputs, §5.4).
    case standIn(String)

    /// The spelling in generated top-level code (project types fully qualified).
    func spelling(_ index: GuestSourceIndex) -> String {
        switch self {
        case .int: return "Int"
        case .int64: return "Int64"
        case .int32: return "Int32"
        case .double: return "Double"
        case .bool: return "Bool"
        case .string: return "String"
        case .character: return "Character"
        case .optional(let wrapped): return "Optional<\(wrapped.spelling(index))>"
        case .array(let element): return "[\(element.spelling(index))]"
        case .set(let element): return "Set<\(element.spelling(index))>"
        case .range(let bound, let closed): return (closed ? "ClosedRange<" : "Range<") + bound.spelling(index) + ">"
        case .dictionary(let key, let value): return "[\(key.spelling(index)): \(value.spelling(index))]"
        case .project(let type): return index.types[type].qualifiedName
        case .standIn(let name): return name
        }
    }

    /// The wasm value type of the scalar fast path, nil when this is not a scalar.
    var scalarWasmType: String? {
        switch self {
        case .int, .int64: return "i64"
        case .int32, .bool: return "i32"
        case .double: return "f64"
        default: return nil
        }
    }

    /// The Swift type of the scalar fast path's parameter or result for this scalar.
    var scalarABISpelling: String? {
        switch self {
        case .int, .int64: return "Int64"
        case .int32: return "Int32"
        case .bool: return "Bool"
        case .double: return "Double"
        default: return nil
        }
    }

    func projectTypes() -> [Int] {
        switch self {
        case .optional(let inner), .array(let inner), .set(let inner), .range(let inner, _): return inner.projectTypes()
        case .dictionary(let key, let value): return key.projectTypes() + value.projectTypes()
        case .project(let type): return [type]
        default: return []
        }
    }

    /// The Foundation layer's types a signature can carry, in functions and views alike (every
    /// module compiles the layer); `TimeInterval` is Foundation's name for Double.
    static let foundationLayer: [String: GuestValueType] = [
        "Date": .standIn("Date"), "TimeInterval": .double,
        "UUID": .standIn("UUID"), "URL": .standIn("URL"), "Data": .standIn("Data"),
    ]

    /// Foundation and CoreGraphics types the view DSL stands in for, as the host encodes them (§5.4:
    /// UUID and URL as strings, the CoreGraphics structs as objects of their stored properties);
    /// `CGFloat` is Double in the guest.
    static let viewStandIns: [String: GuestValueType] = [
        "CGPoint": .standIn("CGPoint"), "CGSize": .standIn("CGSize"), "CGRect": .standIn("CGRect"),
        "CGVector": .standIn("CGVector"), "CGFloat": .double,
    ]

    var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }
}

/// Names of OS-framework types and functions a guest cannot use, for a precise reason instead of a
/// bare "cannot find in scope". Not exhaustive: the guest compiler catches the rest and its
/// diagnostic is attributed by the declaring file's imports.
enum GuestFrameworkNames {
    /// The types and functions the guest Foundation layer declares (templates/guest/Foundation*.swift;
    /// a test holds the two together): code using them compiles into the guest.
    static let foundationLayer: Set<String> = [
        "Date", "TimeInterval", "Locale", "TimeZone", "Calendar", "DateComponents", "DateFormatter", "ISO8601DateFormatter",
        "RelativeDateTimeFormatter", "NumberFormatter", "NSNumber", "UserDefaults", "Bundle", "Logger", "OSLogMessage", "OSLogPrivacy",
        "CharacterSet", "ComparisonResult", "URL", "URLComponents", "URLQueryItem", "UUID", "Data", "JSONEncoder", "JSONDecoder",
        "EncodingError", "DecodingError", "URLRequest", "URLResponse", "HTTPURLResponse",
        // Declared unavailable, with the reason the guest compiler then reports (Foundation+Bundle.swift).
        "NSLocalizedString",
    ]

    static let types: [String: String] = {
        var table: [String: String] = [:]
        for name in [
            "Date", "URL", "URLComponents", "UUID", "Data", "Decimal", "NSDecimalNumber", "NumberFormatter", "DateFormatter",
            "ISO8601DateFormatter", "DateComponents", "Calendar", "TimeZone", "Locale", "NSString", "NSNumber", "JSONEncoder",
            "JSONDecoder", "JSONSerialization", "PropertyListEncoder", "FileManager", "UserDefaults", "Bundle", "ProcessInfo",
            "NotificationCenter", "URLSession", "URLRequest", "CharacterSet", "NSRegularExpression", "Measurement",
            "DispatchQueue", "Timer", "AttributedString", "NSAttributedString", "Scanner", "NSPredicate",
            "RelativeDateTimeFormatter", "ByteCountFormatter", "MeasurementFormatter", "PersonNameComponents", "IndexSet",
        ] { table[name] = "Foundation" }
        for name in ["sqrt", "pow", "floor", "ceil", "round", "log", "log10", "log2", "exp", "sin", "cos", "tan", "fabs", "fmod", "trunc"] {
            table[name] = "Foundation (C math; use .squareRoot(), .rounded() and friends)"
        }
        for name in ["CGFloat", "CGSize", "CGPoint", "CGRect", "CGVector"] { table[name] = "CoreGraphics" }
        for name in ["View", "Color", "Font", "Text", "Image", "State", "Binding", "ObservedObject", "EnvironmentObject", "AppStorage"] {
            table[name] = "SwiftUI"
        }
        for name in ["UIColor", "UIFont", "UIImage", "UIView", "UIViewController", "UIApplication", "UIDevice", "UIScreen"] {
            table[name] = "UIKit"
        }
        for name in ["Published", "ObservableObject", "AnyCancellable", "Just", "PassthroughSubject", "CurrentValueSubject", "AnyPublisher"] {
            table[name] = "Combine"
        }
        for name in ["Task", "TaskGroup", "MainActor", "AsyncStream", "Actor"] { table[name] = "_Concurrency" }
        for name in foundationLayer { table[name] = nil }
        return table
    }()

    /// Members that exist only through Foundation's extensions of standard types and that the layer
    /// does not have (its String API is in Foundation+String.swift and Foundation+URL.swift).
    static let members: Set<String> = [
        "padding", "localizedCaseInsensitiveCompare", "localizedStandardContains",
        "localizedUppercase", "localizedLowercase", "localizedCapitalized", "folding", "applyingTransform",
    ]

    /// The API a guest compiler diagnostic says is missing: `X` of "cannot find 'X' in scope" (or
    /// "cannot find type 'X'"), `T.m` of "value of type 'T' has no member 'm'" (or "type 'T' …"), `x`
    /// of "'x' is unavailable"; nil for any other diagnostic.
    static func missingSymbol(in message: String) -> String? {
        let quoted = message.split(separator: "'", omittingEmptySubsequences: false)
        guard quoted.count >= 3 else { return nil }
        if message.hasPrefix("cannot find ") || quoted[2].hasPrefix(" is unavailable") {
            return String(quoted[1])
        }
        if quoted.count >= 5, quoted[2].contains("has no member") {
            return "\(quoted[1]).\(quoted[3])"
        }
        return nil
    }

    static let frameworkModules: Set<String> = [
        "Foundation", "UIKit", "SwiftUI", "Combine", "AppKit", "CoreGraphics", "CoreData", "Darwin", "Glibc", "os", "OSLog",
        "Dispatch", "CoreLocation", "StoreKit", "MapKit", "AVFoundation",
    ]
}
