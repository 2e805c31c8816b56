import Redis

/// The generic cell rate algorithm as one atomic Lua script on Redis, shared by every limiter: a budget of `burst`
/// units that refills one unit every `emissionMicroseconds`, kept as the "theoretical arrival time" (TAT) of its next
/// unit, in microseconds of Redis' own clock (`TIME`), so every API instance shares it and clock skew does not matter.
///
/// `.take` counts one unit when it fits (a unit over the budget takes nothing, so the budget refills at its rate);
/// `.peek` only says whether one would fit. A budget may come with a mark key (an IP that failed): `.take` sets it for
/// `markSeconds`; `.peek` answers "allowed" without looking at the budget while the mark is not set.
enum GCRA {
    /// Whether a run counts a unit or only looks.
    enum Mode: String {
        case take
        case peek
    }

    /// The script's answer.
    struct Answer: Equatable {
        /// Whether one more unit fits the budget (or, peeking with a mark key, the mark is not set).
        let allowed: Bool
        /// How many more units would fit right now (0 when peeking past an unset mark).
        let remaining: Int
        /// How long until one unit fits, in microseconds (0 when allowed).
        let retryAfterMicroseconds: Int

        /// Whether the gate refused (`gatedScript` only): the retry time is then the gate's.
        let gated: Bool

        /// Parses `{allowed 1|0, remaining, retry-after µs}` (and `gatedScript`'s fourth item, 1 when the gate
        /// refused); nil for any other reply (an error reply included).
        init?(_ reply: RedisReply) {
            guard case .array(let items) = reply, items.count == 3 || items.count == 4,
                  let allowed = items[0].integerValue, let remaining = items[1].integerValue,
                  let retry = items[2].integerValue else { return nil }
            self.allowed = allowed == 1
            self.remaining = Int(remaining)
            self.retryAfterMicroseconds = Int(retry)
            self.gated = items.count == 4 && items[3].integerValue == 1
        }

        /// The retry delay in whole seconds for `Retry-After`, rounded up, at least 1.
        var retryAfterSeconds: Int {
            max(1, Int((Double(retryAfterMicroseconds) / 1_000_000).rounded(.up)))
        }
    }

    /// KEYS: budget (TAT), optional mark. ARGV: emission µs, burst, mode, mark seconds (taking with a mark).
    /// Returns {allowed 1|0, remaining, retry-after µs}.
    static let script = RedisScript(source: """
        local emission = tonumber(ARGV[1])
        local burst = tonumber(ARGV[2])
        local take = ARGV[3] == 'take'
        if not take and KEYS[2] and redis.call('EXISTS', KEYS[2]) == 0 then return {1, 0, 0} end
        local time = redis.call('TIME')
        local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
        local tat = tonumber(redis.call('GET', KEYS[1]) or now)
        if tat < now then tat = now end
        local capacity = burst * emission
        local new_tat = tat + emission
        local fits = new_tat - now <= capacity
        if take and fits then
            redis.call('SET', KEYS[1], string.format('%d', new_tat), 'PX', math.ceil((new_tat - now) / 1000) + 1)
        end
        if take and KEYS[2] then redis.call('SET', KEYS[2], '1', 'EX', tonumber(ARGV[4])) end
        if not fits then return {0, 0, new_tat - now - capacity} end
        return {1, math.floor((capacity - (new_tat - now)) / emission), 0}
        """)

    /// The start of the scripts that look at two budgets: `now` from Redis' clock, and `next_tat(key, emission)`, the
    /// TAT a budget would have after one more unit.
    private static let twoBudgetPrelude = """
        local time = redis.call('TIME')
        local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
        local function next_tat(key, emission)
            local tat = tonumber(redis.call('GET', key) or now)
            if tat < now then tat = now end
            return tat + emission
        end

        """

    /// KEYS: gate budget, budget. ARGV: the gate's emission µs and burst, then the budget's.
    /// Peeks the gate (counting nothing); only when one unit would fit it, takes one unit of the budget as `script`
    /// does. Returns {allowed 1|0, remaining, retry-after µs, gated 1|0} — one round trip for "is this client over
    /// its failed-check budget, and if not, count this request against its key's budget".
    static let gatedScript = RedisScript(source: twoBudgetPrelude + """
        local gate_emission, gate_burst = tonumber(ARGV[1]), tonumber(ARGV[2])
        local gate_tat = next_tat(KEYS[1], gate_emission)
        local gate_capacity = gate_burst * gate_emission
        if gate_tat - now > gate_capacity then return {0, 0, gate_tat - now - gate_capacity, 1} end
        local emission, burst = tonumber(ARGV[3]), tonumber(ARGV[4])
        local new_tat = next_tat(KEYS[2], emission)
        local capacity = burst * emission
        if new_tat - now > capacity then return {0, 0, new_tat - now - capacity, 0} end
        redis.call('SET', KEYS[2], string.format('%d', new_tat), 'PX', math.ceil((new_tat - now) / 1000) + 1)
        return {1, math.floor((capacity - (new_tat - now)) / emission), 0, 0}
        """)

    /// KEYS: budget, then a failed-lookup budget and its mark. ARGV: the budget's emission µs and burst, then the
    /// failed-lookup budget's. Takes one unit of the budget as `script` does; only when it fits and the mark is set,
    /// peeks the failed-lookup budget (counting nothing there). Returns {allowed 1|0, remaining, retry-after µs,
    /// 1 when the failed-lookup budget refused} — the resolve route's two questions ("is this client within its
    /// limit?" and "has it failed lately while the deployment's failed-lookup budget is spent?") in one round trip.
    static let takeThenPeekMarkedScript = RedisScript(source: twoBudgetPrelude + """
        local emission, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
        local new_tat = next_tat(KEYS[1], emission)
        local capacity = burst * emission
        if new_tat - now > capacity then return {0, 0, new_tat - now - capacity, 0} end
        redis.call('SET', KEYS[1], string.format('%d', new_tat), 'PX', math.ceil((new_tat - now) / 1000) + 1)
        local remaining = math.floor((capacity - (new_tat - now)) / emission)
        if redis.call('EXISTS', KEYS[3]) == 0 then return {1, remaining, 0, 0} end
        local failed_emission, failed_burst = tonumber(ARGV[3]), tonumber(ARGV[4])
        local failed_tat = next_tat(KEYS[2], failed_emission)
        local failed_capacity = failed_burst * failed_emission
        if failed_tat - now > failed_capacity then return {0, 0, failed_tat - now - failed_capacity, 1} end
        return {1, remaining, 0, 0}
        """)

    /// Runs the script once on `redis` (one round trip) and returns its raw reply; `Answer(_:)` parses it.
    ///
    /// `budget` and `mark` are Redis keys; `markSeconds` is required when taking with a mark. Throws what the pool
    /// throws (Redis down, timeout).
    static func evaluate(
        _ mode: Mode, budget: String, mark: String? = nil, markSeconds: Int? = nil, emissionMicroseconds: Int,
        burst: Int, on redis: RedisPool
    ) throws -> RedisReply {
        var arguments = [String(emissionMicroseconds), String(burst), mode.rawValue]
        if let markSeconds { arguments.append(String(markSeconds)) }
        return try redis.evaluate(script, keys: [budget] + (mark.map { [$0] } ?? []), arguments: arguments)
    }
}
