-- bench/store, the HTTP run: POST /v1/m/store/apple/<TOKEN> with a pre-signed App Store notification per request,
-- read from BODIES (one request body per line; thread i of WRK_THREADS takes lines i, i+n, …), so every request
-- carries its own notificationUUID and is a new notification. A thread that runs out sends "{}" (a cheap 400) and
-- counts it. Prints "requests <n> rps <x> ok <n> non200 <n> exhausted <n> socket_errors <n> p99_ms <x> seconds <x>".
local threads = {}
local counter = 0

function setup(thread)
    counter = counter + 1
    thread:set("id", counter)
    table.insert(threads, thread)
end

function init(args)
    local count = tonumber(os.getenv("WRK_THREADS"))
    bodies = {}
    local line_no = 0
    for line in io.lines(os.getenv("BODIES")) do
        if line_no % count == id - 1 then table.insert(bodies, line) end
        line_no = line_no + 1
    end
    next_body = 1
    exhausted = 0
    path = "/v1/m/store/apple/" .. os.getenv("TOKEN")
    headers = {["Content-Type"] = "application/json"}
end

function request()
    local body = bodies[next_body]
    if body == nil then
        exhausted = exhausted + 1
        body = "{}"
    end
    next_body = next_body + 1
    return wrk.format("POST", path, headers, body)
end

function done(summary, latency, requests)
    local out = 0
    for _, thread in ipairs(threads) do out = out + (thread:get("exhausted") or 0) end
    local seconds = summary.duration / 1e6
    local e = summary.errors
    io.write(string.format(
        "requests %d rps %.1f ok %d non200 %d exhausted %d socket_errors %d p99_ms %.2f seconds %.3f\n",
        summary.requests, summary.requests / seconds, summary.requests - e.status, e.status, out,
        e.connect + e.read + e.write + e.timeout, latency:percentile(99) / 1000, seconds))
end
