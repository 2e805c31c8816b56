import Foundation

/// Which of `count` shards the calling thread uses: always the same one for a thread, spread evenly over threads
/// (Fibonacci hashing of the pthread id, whose low bits are only alignment). Structures that request threads write
/// to at once (`Metrics`, `LogBuffer`) keep one lock per shard, so those threads rarely wait for each other.
enum ThreadShard {
    static func index(count: Int) -> Int {
        let thread = UInt64(UInt(pthread_self()))
        return Int(((thread &* 0x9E37_79B9_7F4A_7C15) >> 32) % UInt64(count))
    }
}
