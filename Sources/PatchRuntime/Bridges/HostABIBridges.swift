import WasmKit

/// `patch_host.*` host-ABI family (sdk-contract §3.3), served on every platform. Answers come from the
/// configuration (virtual read-only files, bundle info, environment, OS version) and the shared defaults.
extension HostBridges {
    static let hostABIStandIns: [StandIn] = [
        StandIn("patch_host", "file_exists", [.i32, .i32], [.i32]) { call in
            let path = try call.string(0)
            call.record([path])
            return [.bool(call.configuration.hostFiles[path] != nil)]
        },
        StandIn("patch_host", "file_read", [.i32, .i32], [.i64]) { call in
            let path = try call.string(0)
            call.record([path])
            return try call.packed(call.configuration.hostFiles[path] ?? [])
        },
        StandIn("patch_host", "file_size", [.i32, .i32], [.i64]) { call in
            let path = try call.string(0)
            call.record([path])
            return [.int64(call.configuration.hostFiles[path].map { Int64($0.count) } ?? -1)]
        },
        StandIn("patch_host", "bundle_info_string", [.i32, .i32], [.i64]) { call in
            let key = try call.string(0)
            call.record([key])
            return try call.packed(call.configuration.bundleInfo[key])
        },
        StandIn("patch_host", "bundle_resource_path", [.i32, .i32, .i32, .i32], [.i64]) { call in
            let name = try call.string(0)
            let ext = try call.string(2)
            call.record([name, ext])
            guard !ext.isEmpty else { return [.i64(0)] }  // the SDK answers nil for an empty extension
            return try call.packed(call.configuration.bundleResourcePaths["\(name).\(ext)"])
        },
        StandIn("patch_host", "process_env", [.i32, .i32], [.i64]) { call in
            let name = try call.string(0)
            call.record([name])
            return try call.packed(call.configuration.environment[name])
        },
        StandIn("patch_host", "os_version", [], [.i64]) { call in
            call.record([])
            return try call.packed(call.configuration.effectiveOSVersion)
        },
        StandIn("patch_host", "defaults_get_bool", [.i32, .i32], [.i32]) { call in
            let key = try call.string(0)
            call.record([key])
            guard let value = call.state.defaults[key] else { return [.int32(-1)] }
            return [.bool(value.boolValue)]
        },
        StandIn("patch_host", "defaults_get_int", [.i32, .i32], [.i64]) { call in
            let key = try call.string(0)
            call.record([key])
            return [.int64(call.state.defaults[key]?.integerValue ?? 0)]
        },
        StandIn("patch_host", "defaults_get_double", [.i32, .i32], [.i64]) { call in
            let key = try call.string(0)
            call.record([key])
            return [.f64Bits(call.state.defaults[key]?.doubleValue ?? 0)]
        },
        StandIn("patch_host", "defaults_set_bool", [.i32, .i32, .i32]) { call in
            let key = try call.string(0)
            let value = try call.i32(2) != 0
            call.record([key, String(value)])
            call.state.defaults[key] = .bool(value)
            return []
        },
        StandIn("patch_host", "defaults_set_int", [.i32, .i32, .i64]) { call in
            let key = try call.string(0)
            let value = try call.i64(2)
            call.record([key, String(value)])
            call.state.defaults[key] = .int(value)
            return []
        },
        StandIn("patch_host", "defaults_set_double", [.i32, .i32, .i64]) { call in
            let key = try call.string(0)
            let value = try call.f64Bits(2)
            call.record([key, String(value)])
            call.state.defaults[key] = .double(value)
            return []
        },
    ]

    /// `patch_host.*` async / networking (sdk-contract §3.4). They only record what the guest now awaits;
    /// `AsyncPump` answers when the guest runs out of jobs.
    static let asyncStandIns: [StandIn] = [
        StandIn("patch_host", "async_request", [.i32]) { call in
            let token = try call.i32(0)
            call.record([String(token)])
            call.state.owedAsyncRequests.append(
                OwedAsyncRequest(token: token, value: call.configuration.asyncRequestValue(for: token)))
            return []
        },
        StandIn("patch_host", "http_get", [.i32, .i32, .i32]) { call in
            let url = try call.string(0)
            let token = try call.i32(2)
            call.record([url, String(token)])
            call.state.owedHTTPRequests.append(OwedHTTPRequest(token: token, method: "GET", url: url, body: []))
            return []
        },
        StandIn("patch_host", "http_request", [.i32, .i32, .i32, .i32, .i32, .i32, .i32]) { call in
            let method = try call.string(0)
            let url = try call.string(2)
            let body = try call.bytes(4)
            let token = try call.i32(6)
            let verb = method.isEmpty ? "GET" : method.uppercased()
            call.record([verb, url, "\(body.count) bytes", String(token)])
            call.state.owedHTTPRequests.append(OwedHTTPRequest(token: token, method: verb, url: url, body: body))
            return []
        },
    ]
}
