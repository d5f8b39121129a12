import PatchManifest

/// One entry of `patch_view_manifest` (sdk-contract §5.3).
public struct ViewManifestEntry: Sendable, Equatable, Encodable {
    public var type: String
    public var export: String
    public var dispatch: String?
    public var thunkSafe: Bool
}

/// The decoded `patch_view_manifest` document.
public struct ViewManifest: Sendable {
    public static let export = "patch_view_manifest"

    public var schemaVersion: Int
    public var views: [ViewManifestEntry]

    /// The entry the SDK would route for `name`: duplicates of a type collapse to the last one listed.
    public func entry(named name: String) -> ViewManifestEntry? {
        views.last { $0.type == name }
    }
}

/// One pass of `view_body__<Name>`.
public struct ViewRender: Sendable {
    /// The flat inputs JSON the body export was called with.
    public let input: String
    public let tree: ValidatedTree
    public let coverage: MessagePackValue?
    public let schemaVersion: Int?
}

/// One `--event` as it was dispatched.
public struct AppliedViewEvent: Sendable, Encodable {
    public let id: String
    /// The node kind or modifier that sends it (nil for `__noop__`).
    public let source: String?
    /// The `IRValue` sent, as JSON.
    public let value: String
    /// The state string `dispatch__<Name>` returned, which the next render merges into its inputs.
    public let state: String
}

/// Drives one view the way the SDK's `PatchedBodyHost` does (sdk-contract §5.4): inputs are
/// `merge(props, guestState)` as flat sorted JSON, every render calls the body export, an event goes
/// through the dispatch export with the same inputs as its `state`, the returned `state` replaces the
/// guest state, and the view re-renders by calling the body export again. The `tree` a dispatch
/// returns is validated but, as on device, not what is shown.
public struct ViewHost {
    let session: RuntimeSession
    public let manifest: ViewManifest
    public let entry: ViewManifestEntry
    let props: [(key: String, value: MessagePackValue)]
    let limits: ViewLimits
    var guestState: [(key: String, value: MessagePackValue)] = []

    /// Routes `name` the way the SDK does: a manifest with an IR schema it reads, an entry of that
    /// type, `thunkSafe`.
    public init(session: RuntimeSession, view name: String, inputs: MessagePackValue,
                limits: ViewLimits = ViewLimits()) throws(RuntimeError) {
        guard case let .map(props) = inputs else {
            throw .view(.invalidInputs(detail: "expected a JSON object of the view's properties, found \(inputs.jsonKind)"))
        }
        let manifest = try Self.manifest(in: session, limits: limits)
        guard let entry = manifest.entry(named: name) else {
            throw .view(.unknownView(name: name, available: manifest.views.map(\.type)))
        }
        guard entry.thunkSafe else { throw .view(.viewNotRouted(name: name)) }
        self.session = session
        self.manifest = manifest
        self.entry = entry
        self.props = props
        self.limits = limits
    }

    /// Calls `patch_view_manifest` with empty input, as the SDK does once per module epoch.
    public static func manifest(in session: RuntimeSession, limits: ViewLimits = ViewLimits()) throws(RuntimeError) -> ViewManifest {
        guard session.exportedFunctions.contains(ViewManifest.export) else { throw .view(.noViewManifest) }
        let document = try callDocument(session, ViewManifest.export, input: [], as: "ViewManifest", limits: limits).document
        var views: [ViewManifestEntry] = []
        if case let .array(entries)? = document.member("views") {
            for entry in entries {
                guard case let .string(type)? = entry.member("type"), case let .string(export)? = entry.member("export"),
                      case let .bool(thunkSafe)? = entry.member("thunkSafe") else { continue }
                var dispatch: String?
                if case let .string(name)? = entry.member("dispatch") { dispatch = name }
                views.append(ViewManifestEntry(type: type, export: export, dispatch: dispatch, thunkSafe: thunkSafe))
            }
        }
        return ViewManifest(schemaVersion: Int(document.member("schemaVersion")?.integer ?? 0), views: views)
    }

    /// The inputs of the next pass: props overridden by the guest state, keys sorted, no whitespace.
    public var input: String {
        var merged: [String: MessagePackValue] = [:]
        for (key, value) in props { merged[key] = value }
        for (key, value) in guestState { merged[key] = value }
        return MessagePackValue.map(merged.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }).renderJSON(pretty: false)
    }

    /// Calls the body export with the current inputs.
    public func render() throws(RuntimeError) -> ViewRender {
        let input = self.input
        let (document, validator) = try Self.callDocument(session, entry.export, input: Array(input.utf8), as: "BodyEmission", limits: limits)
        let root = document.member("root") ?? .null
        return ViewRender(input: input, tree: validator.validated(root: root), coverage: document.member("coverage"),
                          schemaVersion: document.member("schemaVersion")?.integer.map { Int($0) })
    }

    /// Sends `request` through the dispatch export, provided something in `tree` sends that event
    /// (or it is `__noop__`), and adopts the returned state. Call `render()` afterwards to re-render.
    public mutating func dispatch(_ request: ViewEventRequest, from tree: ValidatedTree) throws(RuntimeError) -> AppliedViewEvent {
        guard let dispatchExport = entry.dispatch else { throw .view(.readOnlyView(name: entry.type)) }
        let source: ViewEventSource?
        let value: MessagePackValue
        if request.id == ViewEventRequest.noop {
            guard request.value == nil else {
                throw .view(.invalidEventValue(id: request.id, source: "no-op event", text: request.value ?? "", expected: "no value"))
            }
            (source, value) = (nil, ViewEventSource.irValue("none", []))
        } else {
            guard let found = tree.events.first(where: { $0.id == request.id }) else {
                throw .view(.unknownEvent(id: request.id, available: tree.eventIDs))
            }
            do throws(ViewError) { value = try found.value(for: request.value) } catch { throw .view(error) }
            source = found
        }
        let event = MessagePackValue.map([("event", .map([("id", .string(request.id))])), ("value", value)])
        let input = MessagePackValue.map([("state", .string(self.input)), ("event", event)]).renderJSON(pretty: false)
        let (document, _) = try Self.callDocument(session, dispatchExport, input: Array(input.utf8), as: "DispatchResult", limits: limits)
        guard case let .string(state)? = document.member("state") else {
            throw .view(.invalidOutput(export: dispatchExport, path: "$.state", detail: "expected a string"))
        }
        guestState = try Self.guestState(state, export: dispatchExport)
        return AppliedViewEvent(id: request.id, source: source?.source, value: value.renderJSON(pretty: false), state: state)
    }

    /// The state string as the object the host merges into the inputs; empty means none yet.
    private static func guestState(_ state: String, export: String) throws(RuntimeError) -> [(key: String, value: MessagePackValue)] {
        guard !state.isEmpty else { return [] }
        guard case let .map(members)? = MessagePackValue.parseJSON(Array(state.utf8)) else {
            throw .view(.invalidOutput(export: export, path: "$.state", detail: "the state must be a JSON object (as a string) for the host to merge into the inputs"))
        }
        return members
    }

    /// Calls a packed export and checks its JSON output as `structure`.
    private static func callDocument(_ session: RuntimeSession, _ export: String, input: [UInt8], as structure: String,
                                     limits: ViewLimits) throws(RuntimeError) -> (document: MessagePackValue, validator: ViewTreeValidator) {
        let output = try session.callPacked(export, input: input).output ?? []
        var validator = ViewTreeValidator(export: export, limits: limits)
        do throws(ViewError) {
            let document = try validator.parse(output)
            try validator.validateDocument(document, as: structure)
            return (document, validator)
        } catch {
            throw .view(error)
        }
    }
}

/// A view rendered, driven through its events and re-rendered after each, as `run --view` reports it.
public struct ViewRun: Sendable {
    public let entry: ViewManifestEntry
    public let manifestSchemaVersion: Int
    public let events: [AppliedViewEvent]
    /// The last render (after the last event).
    public let render: ViewRender

    /// The event ids `--event` can send to the last render: none for a read-only view.
    public var dispatchable: [String] {
        entry.dispatch == nil ? [] : render.tree.eventIDs
    }
}

extension RuntimeSession {
    /// Renders view `name` with `inputs`, applies `events` in order (re-rendering after each, each
    /// event looked up in the tree it was sent from) and returns the final render.
    public func runView(_ name: String, inputs: MessagePackValue, events: [ViewEventRequest],
                        limits: ViewLimits = ViewLimits()) throws(RuntimeError) -> ViewRun {
        var host = try ViewHost(session: self, view: name, inputs: inputs, limits: limits)
        var render = try host.render()
        var applied: [AppliedViewEvent] = []
        for event in events {
            applied.append(try host.dispatch(event, from: render.tree))
            render = try host.render()
        }
        return ViewRun(entry: host.entry, manifestSchemaVersion: host.manifest.schemaVersion, events: applied, render: render)
    }
}

/// Mean wall times of `run --view --repeat N`: the body export called N times with the view's first
/// inputs, and (when an event is given) the dispatch export called N times with that event, each
/// call's output validated as the SDK decodes it.
public struct ViewTiming: Sendable, Encodable {
    public let calls: Int
    public let renderMeanUs: Double
    public let dispatchMeanUs: Double?
}

extension RuntimeSession {
    /// Times `count` renders of `name` from `inputs`, then `count` dispatches of `event` (each from
    /// the state the previous one returned, as repeated taps would be) when it is given.
    public func timeView(_ name: String, inputs: MessagePackValue, event: ViewEventRequest?, count: Int,
                         limits: ViewLimits = ViewLimits()) throws(RuntimeError) -> ViewTiming {
        var host = try ViewHost(session: self, view: name, inputs: inputs, limits: limits)
        let clock = ContinuousClock()
        var tree = try host.render().tree
        let rendering = clock.now
        for _ in 0..<count { tree = try host.render().tree }
        let renderMeanUs = (clock.now - rendering).inSeconds * 1e6 / Double(count)
        var dispatchMeanUs: Double?
        if let event {
            let dispatching = clock.now
            for _ in 0..<count { _ = try host.dispatch(event, from: tree) }
            dispatchMeanUs = (clock.now - dispatching).inSeconds * 1e6 / Double(count)
        }
        // Nanosecond resolution: the clock's jitter is well above it, so further digits are noise.
        return ViewTiming(
            calls: count, renderMeanUs: renderMeanUs.rounded(toPlaces: 3), dispatchMeanUs: dispatchMeanUs.map { $0.rounded(toPlaces: 3) })
    }
}
