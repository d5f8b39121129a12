import Foundation

/// How the value of an event is typed (sdk-contract §5.6.6).
public enum ViewEventValueKind: String, Sendable, Encodable {
    case none, bool, int, double, string, point
    case intArray = "array[int]"
    case doubleArray = "array[double]"
    case stringArray = "array[string]"
    /// A picker's or bound tab view's option tag, `int` or `string` per the node's `kind`.
    case tag
}

/// Something in a rendered tree that dispatches an event: a control, a button, a gesture or a
/// presentation modifier.
public struct ViewEventSource: Sendable {
    public let id: String
    /// The node kind or modifier that sends it.
    public let source: String
    public let valueKind: ViewEventValueKind
    /// JSON path of the event id in the tree.
    public let path: String
    /// The node kind's or modifier's payload: current values, stepper bounds, option tags.
    let payload: MessagePackValue

    /// Node kinds that dispatch, and the key holding the event id (a `button`'s is its `actionID`).
    static let nodeEvents: [String: (String, ViewEventValueKind)] = [
        "button": ("actionID", .none), "toggle": ("event", .bool), "slider": ("event", .double), "stepper": ("event", .int),
        "textField": ("event", .string), "secureField": ("event", .string), "textEditor": ("event", .string),
        "picker": ("event", .tag), "boundTabView": ("event", .tag), "datePicker": ("event", .double),
        "colorPicker": ("event", .doubleArray), "navigationStackPath": ("event", .stringArray),
        "boundDisclosureGroup": ("event", .bool), "boundSection": ("event", .bool),
    ]

    /// Modifiers that dispatch, with the keys holding event ids. `onChange` is passive in this SDK.
    static let modifierEvents: [String: [(String, ViewEventValueKind)]] = [
        "onTapGesture": [("_0", .none)], "onLongPressGesture": [("_1", .none)], "onAppear": [("_0", .none)],
        "onDisappear": [("_0", .none)], "task": [("_0", .none)], "onSubmit": [("_0", .none)], "onHover": [("_0", .bool)],
        "dragGesture": [("onChanged", .point), ("onEnded", .point)], "magnifyGesture": [("_0", .double)],
        "rotateGesture": [("_0", .double)], "sheet": [("event", .bool)], "sheetItem": [("event", .bool)],
        "fullScreenCover": [("event", .bool)], "popover": [("event", .bool)], "alert": [("event", .bool)],
        "confirmationDialog": [("event", .bool)], "navigationDestinationBool": [("event", .bool)],
        "searchable": [("event", .string)], "focused": [("event", .string)],
        "onDelete": [("_0", .intArray)], "onMove": [("_0", .intArray)],
    ]

    /// The id of an `EventID` object or a button's `actionID` string; nil for an absent optional event.
    static func eventID(_ value: MessagePackValue?) -> String? {
        switch value {
        case let .string(id)?: return id
        case let .map(entries)?: if case let .string(id)? = entries.first(where: { $0.key == "id" })?.value { return id }
        default: break
        }
        return nil
    }

    /// The `IRValue` the host would send for `--event ID[=VALUE]`. A bool event without a value flips
    /// the control's current state (a tap on the toggle, a dismissal of a presented sheet); a stepper's
    /// value is clamped to its bounds before sending, as the host does.
    public func value(for text: String?) throws(ViewError) -> MessagePackValue {
        switch valueKind {
        case .none:
            guard text == nil else { throw invalid(text ?? "", "no value") }
            return Self.irValue("none", [])
        case .bool:
            if let text {
                guard let flag = Bool(text) else { throw invalid(text, "true or false") }
                return Self.irValue("bool", [.bool(flag)])
            }
            let current = ["value", "isExpanded", "isPresented", "itemPresent"].lazy.compactMap { self.payload.member($0) }.first
            guard case let .bool(flag)? = current else { throw invalid("", "true or false") }
            return Self.irValue("bool", [.bool(!flag)])
        case .int:
            guard let text, var number = Int64(text) else { throw invalid(text ?? "", "an integer") }
            if let low = payload.member("min")?.integer { number = max(number, low) }
            if let high = payload.member("max")?.integer { number = min(number, high) }
            return Self.irValue("int", [.int(number)])
        case .double:
            guard let text, let number = Double(text) else { throw invalid(text ?? "", "a number") }
            return Self.irValue("double", [.double(number)])
        case .string:
            return Self.irValue("string", [.string(text ?? "")])
        case .point:
            let parts = (text ?? "").split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2 else { throw invalid(text ?? "", "a translation DX,DY") }
            return Self.irValue("point", [.double(parts[0]), .double(parts[1])])
        case .intArray, .doubleArray, .stringArray:
            let items = (text ?? "").isEmpty ? [] : (text ?? "").split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            var elements: [MessagePackValue] = []
            for item in items {
                switch valueKind {
                case .intArray:
                    guard let number = Int64(item.trimmingCharacters(in: .whitespaces)) else { throw invalid(text ?? "", "comma-separated integers") }
                    elements.append(Self.irValue("int", [.int(number)]))
                case .doubleArray:
                    guard let number = Double(item.trimmingCharacters(in: .whitespaces)) else { throw invalid(text ?? "", "comma-separated numbers") }
                    elements.append(Self.irValue("double", [.double(number)]))
                default:
                    elements.append(Self.irValue("string", [.string(item)]))
                }
            }
            return Self.irValue("array", [.array(elements)])
        case .tag:
            return try tagValue(text)
        }
    }

    private func tagValue(_ text: String?) throws(ViewError) -> MessagePackValue {
        let options = payload.member("options") ?? payload.member("tabs")
        var tags: [String] = []
        if case let .array(items)? = options {
            for item in items {
                switch item.member("tag") {
                case let .string(tag)?: tags.append(tag)
                case let tag?: if let scalar = tag.member("int")?.member("_0")?.integer { tags.append(String(scalar)) } else if case let .string(text)? = tag.member("string")?.member("_0") { tags.append(text) }
                default: break
                }
            }
        }
        let expected = "one of its tags (\(tags.joined(separator: ", ")))"
        guard let text, tags.isEmpty || tags.contains(text) else { throw invalid(text ?? "", expected) }
        if case .string("int")? = payload.member("kind") {
            guard let number = Int64(text) else { throw invalid(text, expected) }
            return Self.irValue("int", [.int(number)])
        }
        return Self.irValue("string", [.string(text)])
    }

    /// `{"case": {"_0": …, "_1": …}}`, the wire form of an `IRValue`.
    static func irValue(_ caseName: String, _ payload: [MessagePackValue]) -> MessagePackValue {
        .map([(caseName, .map(payload.enumerated().map { ("_\($0.offset)", $0.element) }))])
    }

    private func invalid(_ text: String, _ expected: String) -> ViewError {
        .invalidEventValue(id: id, source: source, text: text, expected: expected)
    }
}

/// One `--event ID[=VALUE]`.
public struct ViewEventRequest: Sendable, Equatable {
    public var id: String
    public var value: String?

    /// The event id hosts and tests send to fetch a view's initial state; every guest must ignore it.
    public static let noop = "__noop__"

    public init(id: String, value: String? = nil) {
        self.id = id
        self.value = value
    }

    /// Splits `ID[=VALUE]` at the first `=`.
    public init(parsing argument: String) {
        if let separator = argument.firstIndex(of: "=") {
            self.init(id: String(argument[..<separator]), value: String(argument[argument.index(after: separator)...]))
        } else {
            self.init(id: argument)
        }
    }
}
