-- wrk script: the SDK's exact check request (sdk-contract §7.2) from 10,000 distinct devices.
-- Versions and fingerprints come from the environment (set by run.py). Each wrk thread walks the
-- device ids from its own offset, so together the threads cycle through all 10,000.
local devices = 10000
local fingerprints = {}
for value in string.gmatch(os.getenv("BENCH_FINGERPRINTS") or "fp-1", "[^,]+") do table.insert(fingerprints, value) end
local versions = {}
for value in string.gmatch(os.getenv("BENCH_VERSIONS") or "0.0.0", "[^,]+") do table.insert(versions, value) end

local thread_count = 0
function setup(thread)
    thread:set("thread_index", thread_count)
    thread_count = thread_count + 1
end

local counter = 0
function init(args)
    -- BENCH_OFFSET: fleet.py's wrk per replica starts each at its own device.
    counter = (thread_index or 0) * 2503 + tonumber(os.getenv("BENCH_OFFSET") or "0")
end

local headers = { ["Content-Type"] = "application/json" }

function request()
    counter = counter + 1
    local device = counter % devices
    local body = string.format(
        '{"current_version":"%s","fingerprint":"%s","device_id":"device-%05d","app_key":"bench-app",' ..
        '"os_version":"17.4.0","app_version":"1.4.0","sdk_version":"1.2.0","channel":"production"}',
        versions[device % #versions + 1], fingerprints[device % #fingerprints + 1], device)
    return wrk.format("POST", "/api/v1/modules/check", headers, body)
end

-- summary.errors.status counts non-2xx answers: run.py refuses a run that had any.
function done(summary, latency, requests)
    io.write(string.format("BENCH p50_us=%d p99_us=%d requests=%d non2xx_errors=%d\n",
        latency:percentile(50), latency:percentile(99), summary.requests, summary.errors.status))
end
