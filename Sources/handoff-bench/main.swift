import Domain
import EventStore
import Foundation
import Postgres
import Synchronization

// bench/append's load generator (not part of the service): one-event commands from WRITERS threads spread over
// ORGS orgs for SECONDS seconds; prints "events/s <number>". Each writer owns one stream per org and appends with
// an exact expected version, as a command handler does.
//
//   handoff-bench <database-url> <orgs> <writers> <seconds> [batch-lanes]
//
// batch-lanes: EventLog's group commit lanes (0 = batch per org; the store's default when absent).
let arguments = CommandLine.arguments
guard arguments.count == 5 || arguments.count == 6, let orgCount = Int(arguments[2]), let writers = Int(arguments[3]),
      let seconds = Double(arguments[4]), orgCount > 0, writers > 0, seconds > 0,
      arguments.count == 5 || Int(arguments[5]) != nil else {
    FileHandle.standardError.write(Data(
        "usage: handoff-bench <database-url> <orgs> <writers> <seconds> [batch-lanes]\n".utf8))
    exit(2)
}
let pool = Pool(configuration: PostgresConfiguration(url: arguments[1], poolSize: writers, checkoutTimeout: 30))
let store = arguments.count == 6 ? EventLog(pool: pool, batchLanes: Int(arguments[5])!) : EventLog(pool: pool)
let orgs = (0..<orgCount).map { _ in UUID() }
let metadata = EventMetadata(actor: .system("bench"), requestId: "bench")
let appended = Atomic<Int>(0)
let failures = Atomic<Int>(0)
let started = Atomic<Bool>(false)
let deadline = Mutex<Date>(.distantFuture)
let done = DispatchSemaphore(value: 0)

for writer in 0..<writers {
    Thread {
        var versions = [Int](repeating: 0, count: orgCount)
        var next = writer % orgCount
        while !started.load(ordering: .acquiring) { usleep(1000) }
        let end = deadline.withLock { $0 }
        var count = 0
        while Date() < end {
            let org = next
            next = (next + 1) % orgCount
            let event = NewEvent(type: "BenchRecorded", data: .object([
                "writer": .integer(Int64(writer)), "n": .integer(Int64(count)), "note": .string("one-event command"),
            ]))
            do {
                try store.append(org: orgs[org], stream: "writer-\(writer)", expectedVersion:
                    versions[org] == 0 ? .noStream : .exactly(versions[org]), events: [event], metadata: metadata)
                versions[org] += 1
                count += 1
            } catch {
                failures.add(1, ordering: .relaxed)
                FileHandle.standardError.write(Data("append failed: \(error)\n".utf8))
                usleep(10_000)
            }
        }
        appended.add(count, ordering: .relaxed)
        done.signal()
    }.start()
}
// Warm the pool: one append per org before the clock starts is not needed; connections open on first use.
let start = Date()
deadline.withLock { $0 = start.addingTimeInterval(seconds) }
started.store(true, ordering: .releasing)
for _ in 0..<writers { done.wait() }
let elapsed = Date().timeIntervalSince(start)
let total = appended.load(ordering: .relaxed)
print("events \(total) seconds \(String(format: "%.2f", elapsed)) failures \(failures.load(ordering: .relaxed))")
print("events/s \(String(format: "%.0f", Double(total) / elapsed))")
