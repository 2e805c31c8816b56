import Crypto
import Domain
import EventStore
import Foundation
import Postgres
import Synchronization

/// Buyers whose e-mail is sealed under their data key, for the key-rotation tests: what each value must open to.
struct SealedBuyers: Sendable {
    struct Buyer: Sendable {
        var org: UUID
        var subject: String
        var sealed: SealedValue
        var email: String
    }

    var buyers: [Buyer]

    /// Creates `count` buyers spread over `orgs`, each with a data key wrapped by `keys` and a sealed e-mail, in one
    /// transaction per org (as the application role, in the org's scope).
    static func create(_ count: Int, orgs: [UUID], keys: SubjectKeys, store: EventLog, tag: String = "b")
        throws -> SealedBuyers
    {
        var buyers: [Buyer] = []
        for (index, org) in orgs.enumerated() {
            let share = (index..<count).striding(by: orgs.count)
            let made = try store.transact(in: .org(org)) { transaction in
                try share.map { number -> Buyer in
                    let subject = "\(tag)-\(number)-\(UUID().uuidString.prefix(8))"
                    let email = "buyer\(number)@example.com"
                    guard let sealed = try keys.seal(email, field: .email, org: org, subject: subject,
                                                     on: transaction.connection)
                    else { throw KeyRotationTestError("no key for \(subject)") }
                    return Buyer(org: org, subject: subject, sealed: sealed, email: email)
                }
            }
            buyers += made
        }
        return SealedBuyers(buyers: buyers)
    }

    /// What each buyer's e-mail opens to with `keys` (`nil` where the data key does not unwrap).
    func reveal(with keys: SubjectKeys, store: EventLog) throws -> [Reveal?] {
        try buyers.map { buyer in
            try store.read(in: .org(buyer.org)) { connection in
                do {
                    return try keys.reveal(buyer.sealed, field: .email, org: buyer.org, subject: buyer.subject,
                                           on: connection)
                } catch SubjectKeyError.unwrapFailed {
                    return nil
                }
            }
        }
    }

    /// How many buyers' e-mails open to the address they were sealed with, under `keys`.
    func openCount(with keys: SubjectKeys, store: EventLog) throws -> Int {
        zip(buyers, try reveal(with: keys, store: store)).filter { $0.1 == .value($0.0.email) }.count
    }
}

private extension Range where Bound == Int {
    func striding(by step: Int) -> StrideTo<Int> { Swift.stride(from: lowerBound, to: upperBound, by: step) }
}

/// A value several threads share.
final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    var value: Value { mutex.withLock { $0 } }
    func update(_ change: (inout Value) -> Void) { mutex.withLock { change(&$0) } }
}

struct KeyRotationTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Threads that read buyers' e-mails over and over until stopped, counting reads and anything that did not open.
final class ContinuousReaders: Sendable {
    private let stop = Atomic<Bool>(false)
    private let reads = Atomic<Int>(0)
    private let failures = Mutex<[String]>([])
    private let done = Mutex<Int>(0)
    private let threads: Int

    init(threads: Int, buyers: SealedBuyers, keys: SubjectKeys, store: EventLog) {
        self.threads = threads
        for index in 0..<threads {
            Thread.detachNewThread { [self] in
                var position = index
                while !stop.load(ordering: .relaxed) {
                    let buyer = buyers.buyers[position % buyers.buyers.count]
                    position += threads
                    do {
                        let revealed = try store.read(in: .org(buyer.org)) {
                            try keys.reveal(buyer.sealed, field: .email, org: buyer.org, subject: buyer.subject,
                                            on: $0)
                        }
                        if revealed != .value(buyer.email) {
                            failures.withLock { $0.append("\(buyer.subject): \(revealed)") }
                        }
                    } catch {
                        failures.withLock { $0.append("\(buyer.subject): \(error)") }
                    }
                    reads.add(1, ordering: .relaxed)
                }
                done.withLock { $0 += 1 }
            }
        }
    }

    /// Stops the threads, waits for them, and returns how many reads they made and what failed.
    func finish() -> (reads: Int, failures: [String]) {
        stop.store(true, ordering: .relaxed)
        while done.withLock({ $0 }) < threads { Thread.sleep(forTimeInterval: 0.01) }
        return (reads.load(ordering: .relaxed), failures.withLock { $0 })
    }

    /// Reads made so far.
    var readCount: Int { reads.load(ordering: .relaxed) }
}
