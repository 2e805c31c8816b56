import Foundation
import Synchronization

/// A small per-process memory of limited keys: once Redis has said "limited, retry after T", every request of that
/// key in this process is refused from memory until T has passed, without a Redis round trip.
///
/// This is exact, not an approximation: GCRA (`GCRA.script`) takes nothing from a refused request and no request
/// makes a budget's theoretical arrival time earlier, so until T every instance's request of that key would be
/// refused by Redis too. The deadline is counted from the moment the question was *sent* (before Redis read its
/// clock), so the memory never refuses longer than Redis would; at worst it lets one request more reach Redis, which
/// then decides. Allowed requests are never remembered: they always go through Redis, so limits stay shared.
///
/// Keys are held as given (a client IP, a key prefix) only in this process' memory, never logged or sent anywhere.
/// Bounded: at most `capacity` keys; when full, expired entries are dropped, and if none has expired the new key is
/// not remembered (it is then refused by Redis as before), so a flood of distinct addresses cannot grow memory.
/// Time is a monotonic clock in nanoseconds (`DispatchTime.now().uptimeNanoseconds` unless a caller passes `now`).
public final class DenyCache: Sendable {
    /// Most keys remembered at once.
    public let capacity: Int
    private let deadlines = Mutex<[String: UInt64]>([:])

    /// A cache of at most `capacity` keys (at least 1).
    public init(capacity: Int = 10_000) {
        precondition(capacity >= 1, "a deny cache needs room for one key")
        self.capacity = capacity
    }

    /// The monotonic clock the cache uses by default, in nanoseconds.
    public static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// The whole seconds (rounded up, at least 1) until `key` may be asked about again, or nil when it is not
    /// remembered as limited at `now` (an expired entry is dropped).
    public func retryAfterSeconds(_ key: String, now: UInt64 = DenyCache.now()) -> Int? {
        deadlines.withLock { deadlines in
            guard let deadline = deadlines[key] else { return nil }
            guard deadline > now else {
                deadlines[key] = nil
                return nil
            }
            let remaining = deadline - now
            return max(1, Int((remaining + 999_999_999) / 1_000_000_000))
        }
    }

    /// Remembers `key` as limited for `microseconds` from `askedAt` (the monotonic time before Redis was asked).
    public func deny(_ key: String, forMicroseconds microseconds: Int, askedAt: UInt64) {
        guard microseconds > 0 else { return }
        let deadline = askedAt &+ UInt64(microseconds) &* 1000
        deadlines.withLock { deadlines in
            if deadlines[key] == nil && deadlines.count >= capacity {
                deadlines = deadlines.filter { $0.value > askedAt }
                if deadlines.count >= capacity { return }
            }
            deadlines[key] = max(deadline, deadlines[key] ?? 0)
        }
    }

    /// How many keys are remembered (expired ones included until they are looked at or swept).
    public var count: Int { deadlines.withLock { $0.count } }
}
