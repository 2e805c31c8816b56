import Foundation

/// Statuses collected from concurrent requests.
final class Statuses: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int] = []
    func add(_ status: Int) { lock.lock(); values.append(status); lock.unlock() }
    var sorted: [Int] { lock.lock(); defer { lock.unlock() }; return values.sorted() }
}
