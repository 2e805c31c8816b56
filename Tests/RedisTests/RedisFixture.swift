import Foundation
import Redis
import TestSupport

/// Unique keys and configurations for tests that share one Redis and run in parallel.
enum RedisFixture {
    /// A key no other test uses: `test:LABEL:RANDOM`.
    static func key(_ label: String) -> String {
        "test:\(label):\(UInt64.random(in: .min ... .max))"
    }

    /// The shared Redis started by `infra/test`, with the given overrides.
    static func shared(poolSize: Int = 4, commandTimeout: Double = 1, checkoutTimeout: Double = 2) throws
        -> RedisConfiguration
    {
        try RedisConfiguration(url: try TestEnvironment.redisURL(), poolSize: poolSize,
                               commandTimeout: commandTimeout, checkoutTimeout: checkoutTimeout)
    }

    /// Runs `body` with a private Redis, then kills that server with SIGKILL.
    ///
    /// `ScratchRedis.deinit` stops the server with SIGTERM and waits; a server spawned from a dispatch worker
    /// thread (where Swift Testing runs tests) inherits that thread's mask with SIGTERM blocked, so the wait
    /// never ends. SIGKILL cannot be blocked.
    static func withScratchRedis<T>(_ body: (ScratchRedis) throws -> T) throws -> T {
        let scratch = try ScratchRedis()
        defer {
            scratch.resume()
            kill(scratch.pid, SIGKILL)
        }
        return try body(scratch)
    }

    /// Seconds `body` took on the monotonic clock.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}
