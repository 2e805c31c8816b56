-- bench/resolve, steps 2–3: GET /public/handoff/resolve with a fresh code per request, read from CODES (one per line;
-- thread i of n takes lines i, i+n, …). RATE (requests/s, all connections together) paces the run; unset = as fast
-- as possible. Prints "rps <n> p99_ms <x> non200 <n> exhausted <n> p50_ms <x> p999_ms <x>".
local threads = {}
local counter = 0

function setup(thread)
    counter = counter + 1
    thread:set("id", counter)
    table.insert(threads, thread)
end

function init(args)
    local count = tonumber(os.getenv("WRK_THREADS"))
    codes = {}
    local line_no = 0
    for line in io.lines(os.getenv("CODES")) do
        if line_no % count == id - 1 then table.insert(codes, line) end
        line_no = line_no + 1
    end
    next_code = 1
    math.randomseed(os.time() * 100 + id)
    exhausted = 0
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

function request()
    local code = codes[next_code]
    if code == nil then
        exhausted = exhausted + 1
        code = "ZZZZZZZZ"
    end
    next_code = next_code + 1
    return wrk.format("GET", "/public/handoff/resolve?code=" .. code)
end

function done(summary, latency, requests)
    local out_of_codes = 0
    for _, thread in ipairs(threads) do out_of_codes = out_of_codes + (thread:get("exhausted") or 0) end
    io.write(string.format("rps %.1f p99_ms %.2f non200 %d exhausted %d p50_ms %.2f p999_ms %.2f\n",
        summary.requests / (summary.duration / 1e6), latency:percentile(99) / 1000,
        summary.errors.status, out_of_codes, latency:percentile(50) / 1000, latency:percentile(99.9) / 1000))
end
