/// Why `run --view` could not render a view or apply an event. `category` splits them into "the
/// module's view output breaks the IR contract" and "what was asked for is not there".
public enum ViewError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An output of the module (`patch_view_manifest`, a `view_body__`/`dispatch__` result) is not what
    /// the SDK decodes: the device would demote the view (or route none). `path` is a JSON path into it.
    case invalidOutput(export: String, path: String, detail: String)
    /// The artifact has no `patch_view_manifest` export, so the SDK routes no view at all.
    case noViewManifest
    /// No manifest entry has this type name.
    case unknownView(name: String, available: [String])
    /// The entry exists but is not `thunkSafe`, so the device never routes it.
    case viewNotRouted(name: String)
    /// `--event` on a view whose manifest entry has no `dispatch` export.
    case readOnlyView(name: String)
    /// No control, button or modifier of the current tree sends this event id.
    case unknownEvent(id: String, available: [String])
    /// The `=VALUE` of an `--event` does not fit what its source sends.
    case invalidEventValue(id: String, source: String, text: String, expected: String)
    /// `--inputs` is not a JSON object.
    case invalidInputs(detail: String)

    public enum Category: Sendable {
        /// The module's output breaks the IR contract (exit 37).
        case invalidOutput
        /// The view or event asked for does not exist or cannot be reached (exit 38).
        case unavailable
        /// The command line itself is wrong (exit 2).
        case usage
    }

    public var category: Category {
        switch self {
        case .invalidOutput: return .invalidOutput
        case .noViewManifest, .unknownView, .viewNotRouted, .readOnlyView, .unknownEvent: return .unavailable
        case .invalidEventValue, .invalidInputs: return .usage
        }
    }

    public var description: String {
        switch self {
        case let .invalidOutput(export, path, detail):
            return "\(export) returned an invalid view document at \(path): \(detail); the device would not render it"
        case .noViewManifest:
            return "the artifact exports no patch_view_manifest, so the SDK routes no view to it"
        case let .unknownView(name, available):
            return "patch_view_manifest lists no view \"\(name)\" (views: \(available.isEmpty ? "none" : available.joined(separator: ", ")))"
        case let .viewNotRouted(name):
            return "view \"\(name)\" is listed with thunkSafe false: the device keeps rendering its native body"
        case let .readOnlyView(name):
            return "view \"\(name)\" has no dispatch export in patch_view_manifest, so it takes no events"
        case let .unknownEvent(id, available):
            return "nothing in the current tree sends event \"\(id)\" (events: \(available.isEmpty ? "none" : available.joined(separator: ", ")))"
        case let .invalidEventValue(id, source, text, expected):
            return "--event \(id)=\(text): the \(source) sends \(expected)"
        case let .invalidInputs(detail):
            return "--inputs: \(detail)"
        }
    }
}
