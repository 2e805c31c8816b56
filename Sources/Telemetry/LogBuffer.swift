import Foundation
import Synchronization

/// Collects log lines in memory and writes them to a descriptor in batches, from its own thread.
///
/// A request thread only copies its line into the buffer; the writer thread wakes every `interval` and
/// writes everything pending with one `write(2)`. This takes the per-request system call and the lock wait
/// off the request path (the access log cost ~15% of a trivial request when written line by line).
/// A buffer past `limit` bytes is written at once by the appending thread, so memory stays bounded.
/// On a crash, at most `interval` of lines is lost; `flush()` writes everything now.
final class LogBuffer: Sendable {
    /// One lock's share of the pending lines: a thread always appends to the same shard, so its lines stay in
    /// order, and the request threads rarely wait for each other's lock.
    private final class Shard: Sendable {
        let pending = Mutex<[UInt8]>([])
    }

    private static let shardCount = 8

    private let descriptor: Int32
    private let limit: Int
    private let shards: [Shard] = (0..<LogBuffer.shardCount).map { _ in Shard() }
    /// Serialises writes so batches never interleave.
    private let writing = Mutex(())
    private let running = Atomic<Bool>(true)

    /// `limit` bounds each shard: at most `limit` × 8 bytes wait in memory.
    init(descriptor: Int32, interval: Double = 0.05, limit: Int = 256 * 1024) {
        self.descriptor = descriptor
        self.limit = limit
        let thread = Thread { [self] in
            while running.load(ordering: .relaxed) {
                Thread.sleep(forTimeInterval: interval)
                flush()
            }
        }
        thread.name = "handoff-log-writer"
        thread.start()
    }

    /// Queues one complete line (ending in a newline).
    func append(_ line: [UInt8]) {
        let overLimit = shards[ThreadShard.index(count: Self.shardCount)].pending.withLock { buffer in
            buffer.append(contentsOf: line)
            return buffer.count >= limit
        }
        if overLimit { flush() }
    }

    /// Writes everything queued so far: the shards' lines one shard after another, in one write.
    func flush() {
        writing.withLock { _ in
            var batch: [UInt8] = []
            for shard in shards {
                shard.pending.withLock { buffer in
                    if batch.isEmpty {
                        swap(&batch, &buffer)
                    } else {
                        batch.append(contentsOf: buffer)
                        buffer.removeAll(keepingCapacity: true)
                    }
                }
            }
            LogBuffer.writeAll(batch, to: descriptor)
        }
    }

    /// Stops the writer thread after a last flush.
    func close() {
        running.store(false, ordering: .relaxed)
        flush()
    }

    /// Writes all of `bytes`, retrying short writes; gives up on an error (logging must never stop the service).
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { break }
                offset += written
            }
        }
    }
}
