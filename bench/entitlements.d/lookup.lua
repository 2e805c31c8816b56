-- bench/entitlements: GET an entitlement lookup for a random buyer guid bench-1 … bench-<BUYERS>.
-- MODE=s2s: GET /s2s/v1/users/bench-N/entitlements with KEY as the bearer; MODE=public: GET
-- /public/entitlements?projectId=PROJECT&guid=bench-N. Prints "rps <n> non200 <n>".
-- The requests are built once per thread in init() and picked at random per request, and there is no response()
-- callback (wrk would then collect every answer's headers and body into Lua): wrk shares the two cores with the
-- server, so its own CPU per request is kept small. Answers of 400 and above are counted by wrk itself.
function init(args)
    local buyers = tonumber(os.getenv("BUYERS"))
    local mode = os.getenv("MODE")
    local key = os.getenv("KEY")
    local project = os.getenv("PROJECT")
    math.randomseed(os.time() + math.random(1, 100000))
    requests = {}
    for n = 1, buyers do
        local guid = "bench-" .. n
        if mode == "s2s" then
            requests[n] = wrk.format("GET", "/s2s/v1/users/" .. guid .. "/entitlements",
                {["Authorization"] = "Bearer " .. key})
        else
            requests[n] = wrk.format("GET", "/public/entitlements?projectId=" .. project .. "&guid=" .. guid)
        end
    end
    count = buyers
end

function request()
    return requests[math.random(1, count)]
end

function done(summary, latency, requests)
    io.write(string.format("rps %.1f non200 %d\n", summary.requests / (summary.duration / 1e6),
        summary.errors.status))
end
