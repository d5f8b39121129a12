import WasmKit

/// `patch.*` original core bridges (sdk-contract §3.5), served on every platform.
extension HostBridges {
    static let coreStandIns: [StandIn] = [
        StandIn("patch", "http_get", [.i32, .i32], [.i64]) { call in
            let url = try call.string(0)
            call.record([url])
            // Blocking GET: body bytes whatever the status; 0 when the request fails (no fixture).
            guard let response = fixtureResponse(state: call.state, method: "GET", url: url) else { return [.i64(0)] }
            return try call.packed(response.body)
        },
        StandIn("patch", "defaults_get", [.i32, .i32], [.i64]) { call in
            let key = try call.string(0)
            call.record([key])
            return try call.packed(call.state.defaults[key]?.stringValue)
        },
        StandIn("patch", "defaults_set", [.i32, .i32, .i32, .i32]) { call in
            let key = try call.string(0)
            let value = try call.string(2)
            call.record([key, value])
            call.state.defaults[key] = .string(value)
            return []
        },
        StandIn("patch", "defaults_remove", [.i32, .i32]) { call in
            let key = try call.string(0)
            call.record([key])
            call.state.defaults[key] = nil
            return []
        },
        StandIn("patch", "notify_post", [.i32, .i32]) { call in
            let name = try call.string(0)
            call.record([name])
            call.state.postedNotifications.append(name)
            return []
        },
        StandIn("patch", "navigate", [.i32, .i32]) { call in
            let route = try call.string(0)
            call.record([route])
            call.state.navigations.append(route)
            return []
        },
        StandIn("patch", "keychain_get", [.i32, .i32], [.i64]) { call in
            let key = try call.string(0)
            call.record([key])
            return try call.packed(call.state.keychain[key] ?? [])
        },
        StandIn("patch", "keychain_set", [.i32, .i32, .i32, .i32], [.i32]) { call in
            let key = try call.string(0)
            let value = try call.bytes(2)
            call.record([key, "\(value.count) bytes"])
            call.state.keychain[key] = value
            return [.bool(true)]
        },
        StandIn("patch", "keychain_delete", [.i32, .i32], [.i32]) { call in
            let key = try call.string(0)
            call.record([key])
            call.state.keychain[key] = nil
            return [.bool(true)]  // 1 also when absent, like the SDK
        },
        StandIn("patch", "now_unix_millis", [], [.i64]) { call in
            call.record([])
            return [.int64(call.state.readClock())]
        },
        StandIn("patch", "locale_identifier", [], [.i64]) { call in
            call.record([])
            return try call.packed(call.configuration.localeIdentifier)
        },
        StandIn("patch", "timezone_identifier", [], [.i64]) { call in
            call.record([])
            return try call.packed(call.configuration.timeZoneIdentifier)
        },
        StandIn("patch", "json_canonicalize", [.i32, .i32], [.i64]) { call in
            let json = try call.bytes(0)
            call.record(["\(json.count) bytes"])
            return try call.packed(BridgeJSON.parse(json)?.canonicalText)
        },
        StandIn("patch", "log", [.i32, .i32, .i32]) { call in
            let level = LogLine.Level(bridgeLevel: try call.i32(0))
            let message = try call.string(1)
            call.record([level.rawValue, message])
            call.state.appendLog(LogLine(level: level, message: message))
            return []
        },
    ]

    /// The fixture answering `method url`. Without one the request fails like an offline device
    /// (nil), unless `--allow-network` sends it to the real network.
    static func fixtureResponse(state: BridgeState, method: String, url: String) -> NetworkFixtures.Response? {
        let configuration = state.configuration
        if let response = configuration.fixtures.response(method: method, url: url) {
            return response
        }
        let verb = method.isEmpty ? "GET" : method.uppercased()
        if configuration.allowNetwork {
            state.liveRequests.append("\(verb) \(url)")
            if let response = LiveHTTP.fetch(method: verb, url: url) { return response }
        }
        state.unansweredRequests.append("\(verb) \(url)")
        return nil
    }
}
