-- bench/entitlements: GET an entitlement lookup for a random buyer guid bench-1 … bench-<BUYERS>.
-- MODE=s2s: GET /s2s/v1/users/bench-N/entitlements with KEY as the bearer; MODE=public: GET
-- /public/entitlements?projectId=PROJECT&guid=bench-N. Prints "rps <n> non200 <n>".
local threads = {}

function setup(thread)
    table.insert(threads, thread)
end

function init(args)
    buyers = tonumber(os.getenv("BUYERS"))
    mode = os.getenv("MODE")
    key = os.getenv("KEY")
    project = os.getenv("PROJECT")
    math.randomseed(os.time() + math.random(1, 100000))
    failed = 0
end

function request()
    local guid = "bench-" .. math.random(1, buyers)
    if mode == "s2s" then
        return wrk.format("GET", "/s2s/v1/users/" .. guid .. "/entitlements", {["Authorization"] = "Bearer " .. key})
    end
    return wrk.format("GET", "/public/entitlements?projectId=" .. project .. "&guid=" .. guid)
end

function response(status, headers, body)
    if status ~= 200 then failed = failed + 1 end
end

function done(summary, latency, requests)
    local failures = 0
    for _, thread in ipairs(threads) do failures = failures + thread:get("failed") end
    io.write(string.format("rps %.1f non200 %d\n", summary.requests / (summary.duration / 1e6), failures))
end
