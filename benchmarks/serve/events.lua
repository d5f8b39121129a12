-- wrk script: device events (sdk-contract §7.3) from 10,000 distinct devices, downloads and
-- activations of the versions run.py passes, for fleet.py's events/s into PostgreSQL.
local devices = 10000
local versions = {}
for value in string.gmatch(os.getenv("BENCH_VERSIONS") or "0.0.0", "[^,]+") do table.insert(versions, value) end
local types = { "download", "activation" }

local counter = 0
function init(args)
    counter = tonumber(os.getenv("BENCH_OFFSET") or "0")
end

local headers = { ["Content-Type"] = "application/json" }

function request()
    counter = counter + 1
    local device = counter % devices
    local body = string.format(
        '{"device_id":"device-%05d","event_type":"%s","module_version":"%s","app_key":"bench-app",' ..
        '"os_version":"17.4.0","device_model":"iPhone15,2","app_version":"1.4.0","duration_ms":%d}',
        device, types[counter % 2 + 1], versions[device % #versions + 1], counter % 500)
    return wrk.format("POST", "/api/v1/events", headers, body)
end

-- summary.errors.status counts non-2xx answers (503 when the write queue is full).
function done(summary, latency, requests)
    io.write(string.format("BENCH p50_us=%d p99_us=%d requests=%d non2xx_errors=%d\n",
        latency:percentile(50), latency:percentile(99), summary.requests, summary.errors.status))
end
