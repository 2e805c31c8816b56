-- bench/resolve, step 1: records payments through POST /s2s/v1/payments (the real path) and keeps the handoff code
-- and install token of each answer in <CODES_DIR>/codes-<thread>.txt, one per line. Keys rotate over KEYS
-- (space-separated) so the per-key S2S limit does not throttle the minting. Prints "payments <n> non200 <n> seconds <x>"
-- (answers with a code, other answers, and the run's length as wrk measured it) and "p50_ms p99_ms p999_ms". RATE
-- (requests/s, all connections together; CONNECTIONS must be set) paces the run; unset = as fast as possible.
local threads = {}
local counter = 0

function setup(thread)
    counter = counter + 1
    thread:set("id", counter)
    table.insert(threads, thread)
end

function init(args)
    keys = {}
    for key in string.gmatch(os.getenv("KEYS"), "%S+") do table.insert(keys, key) end
    out = io.open(os.getenv("CODES_DIR") .. "/codes-" .. id .. ".txt", "w")
    math.randomseed(os.time() * 100 + id)
    n = 0
    run = os.getenv("RUN_ID") or "r"
    ok = 0
    failed = 0
    local rate = tonumber(os.getenv("RATE") or "0")
    -- wrk calls delay() before each request of a connection: connections × 1000 / rate ms keeps the total at rate.
    pause = rate > 0 and (tonumber(os.getenv("CONNECTIONS")) * 1000 / rate) or 0
end

if tonumber(os.getenv("RATE") or "0") > 0 then
    -- Exponential pauses with mean `pause`: each connection's requests arrive as a Poisson process, as pgbench -R
    -- schedules its transactions. A fixed pause kept a thread's connections in step (wrk delays every connection's
    -- first request too), so requests came in bursts of all of them at once.
    function delay()
        return -math.log(1 - math.random()) * pause
    end
end

local function hex(digits)
    local parts = {}
    for i = 1, digits do parts[i] = string.format("%x", math.random(0, 15)) end
    return table.concat(parts)
end

function request()
    n = n + 1
    local guid = hex(8) .. "-" .. hex(4) .. "-4" .. hex(3) .. "-a" .. hex(3) .. "-" .. hex(12)
    local body = string.format('{"guid":"%s","paymentId":"bench_%s_%d_%d","amount":999,"currency":"EUR",' ..
        '"productId":"com.app.pro","entitlement":"pro","expiresAt":null,"email":"b%d.%d@example.com"}',
        guid, run, id, n, id, n)
    local headers = {["Authorization"] = "Bearer " .. keys[(n % #keys) + 1], ["Content-Type"] = "application/json"}
    return wrk.format("POST", "/s2s/v1/payments", headers, body)
end

function response(status, headers, body)
    if status ~= 200 then
        failed = failed + 1
        return
    end
    local code = string.match(body, '"code":"(%w+)"')
    local token = string.match(body, '"token":"(%w+)"')
    if code then
        ok = ok + 1
        out:write(code, "\n")
    else
        failed = failed + 1
    end
    if token then out:write(token, "\n") end
    out:flush()
end

function done(summary, latency, requests)
    local payments, other = 0, 0
    for _, thread in ipairs(threads) do
        payments = payments + (thread:get("ok") or 0)
        other = other + (thread:get("failed") or 0)
    end
    io.write(string.format("payments %d non200 %d seconds %.3f p50_ms %.2f p99_ms %.2f p999_ms %.2f\n", payments,
        other, summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
        latency:percentile(99.9) / 1000))
end
