-- bench/ingest, an HTTP run: POST PATH with the pre-made bodies of BODIES (back to back) whose lengths are in
-- BODIES.len, one per line; thread i of WRK_THREADS takes bodies i, i+n, …, so every request is a new install and
-- session. A thread that runs out starts over and counts every re-sent body (`exhausted`). HEADERS is "batch" (gzip
-- JSON) or "packet" (octet-stream). Prints "requests <n> rps <x> ok <n> non200 <n> exhausted <n> socket_errors <n>
-- p99_ms <x> seconds <x>".
local threads = {}
local counter = 0

function setup(thread)
    counter = counter + 1
    thread:set("id", counter)
    table.insert(threads, thread)
end

function init(args)
    local count = tonumber(os.getenv("WRK_THREADS"))
    local file = assert(io.open(os.getenv("BODIES"), "rb"))
    local all = file:read("*a")
    file:close()
    bodies = {}
    local offset, index = 1, 0
    for line in io.lines(os.getenv("BODIES") .. ".len") do
        local length = tonumber(line)
        if index % count == id - 1 then table.insert(bodies, all:sub(offset, offset + length - 1)) end
        offset = offset + length
        index = index + 1
    end
    next_body = 1
    wrapped = false
    exhausted = 0
    path = os.getenv("PATH_TO_POST")
    if os.getenv("HEADERS") == "batch" then
        headers = {["Content-Type"] = "application/json", ["Content-Encoding"] = "gzip",
                   ["User-Agent"] = "X3Kit/1.4.2 (iOS 17.5.1)"}
    else
        headers = {["Content-Type"] = "application/octet-stream", ["User-Agent"] = "X3Kit/1.4.2 (iOS 17.5.1)"}
    end
end

function request()
    if next_body > #bodies then
        -- Out of fresh bodies: start over (a re-sent body updates its session instead of storing new rows).
        next_body = 1
        wrapped = true
    end
    if wrapped then exhausted = exhausted + 1 end
    local body = bodies[next_body]
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
