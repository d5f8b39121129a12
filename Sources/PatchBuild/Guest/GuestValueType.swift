import SwiftSyntax

/// A type the generated JSON glue can carry across the packed ABI, in JSONEncoder's shapes.
indirect enum GuestValueType: Hashable, Sendable {
    case int, int64, int32, double, bool, string
    case optional(GuestValueType)
    case array(GuestValueType)
    /// `[String: Value]`, a JSON object.
    case dictionary(GuestValueType)
    /// A struct or enum of the project (index into `GuestSourceIndex.types`).
    case project(Int)
    /// `Date`, `UUID` or `URL`: the view DSL's stand-ins (templates/guest/ViewDSL+Foundation.swift),
    /// which read the host's encoding of them (sdk-contract §5.4). Only view inputs use them.
    case foundationStandIn(String)

    /// The spelling in generated top-level code (project types fully qualified).
    func spelling(_ index: GuestSourceIndex) -> String {
        switch self {
        case .int: return "Int"
        case .int64: return "Int64"
        case .int32: return "Int32"
        case .double: return "Double"
        case .bool: return "Bool"
        case .string: return "String"
        case .optional(let wrapped): return "Optional<\(wrapped.spelling(index))>"
        case .array(let element): return "[\(element.spelling(index))]"
        case .dictionary(let value): return "[String: \(value.spelling(index))]"
        case .project(let type): return index.types[type].qualifiedName
        case .foundationStandIn(let name): return name
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
        case .optional(let inner), .array(let inner), .dictionary(let inner): return inner.projectTypes()
        case .project(let type): return [type]
        default: return []
        }
    }

    /// Foundation types the view DSL stands in for, as the host encodes them (§5.4: Date as epoch
    /// seconds, UUID and URL as strings); `TimeInterval` is Foundation's name for Double.
    static let viewStandIns: [String: GuestValueType] = [
        "Date": .foundationStandIn("Date"), "UUID": .foundationStandIn("UUID"), "URL": .foundationStandIn("URL"),
        "TimeInterval": .double, "CGFloat": .double,
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
    static let types: [String: String] = {
        var table: [String: String] = [:]
        for name in [
            "Date", "URL", "URLComponents", "UUID", "Data", "Decimal", "NSDecimalNumber", "NumberFormatter", "DateFormatter",
            "ISO8601DateFormatter", "DateComponents", "Calendar", "TimeZone", "Locale", "NSString", "NSNumber", "JSONEncoder",
            "JSONDecoder", "JSONSerialization", "PropertyListEncoder", "FileManager", "UserDefaults", "Bundle", "ProcessInfo",
            "NotificationCenter", "URLSession", "URLRequest", "CharacterSet", "NSRegularExpression", "Measurement",
            "DispatchQueue", "Timer", "AttributedString", "NSAttributedString", "NSLocalizedString", "Scanner", "NSPredicate",
            "RelativeDateTimeFormatter", "ByteCountFormatter", "MeasurementFormatter", "PersonNameComponents", "IndexSet",
        ] { table[name] = "Foundation" }
        for name in ["sqrt", "pow", "floor", "ceil", "round", "log", "log10", "log2", "exp", "sin", "cos", "tan", "fabs", "fmod", "trunc"] {
            table[name] = "Foundation (C math; use .squareRoot(), .rounded() and friends)"
        }
        for name in ["CGFloat", "CGSize", "CGPoint", "CGRect"] { table[name] = "CoreGraphics" }
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
        return table
    }()

    /// Members that exist only through Foundation's extensions of standard types.
    static let members: Set<String> = [
        "components", "trimmingCharacters", "replacingOccurrences", "capitalized", "data", "addingPercentEncoding",
        "padding", "localizedCaseInsensitiveCompare", "localizedStandardContains", "caseInsensitiveCompare", "formatted",
        "appendingPathComponent", "localizedUppercase", "localizedLowercase", "folding", "applyingTransform", "range",
    ]

    static let frameworkModules: Set<String> = [
        "Foundation", "UIKit", "SwiftUI", "Combine", "AppKit", "CoreGraphics", "CoreData", "Darwin", "Glibc", "os", "OSLog",
        "Dispatch", "CoreLocation", "StoreKit", "MapKit", "AVFoundation",
    ]
}
