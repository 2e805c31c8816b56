import Foundation

/// Collects answers from concurrent requests.
final class Answers: @unchecked Sendable {
    private let lock = NSLock()
    private var statusList: [Int] = []
    private var guidSet: Set<String> = []

    func add(_ status: Int, _ guid: String) {
        lock.lock()
        defer { lock.unlock() }
        statusList.append(status)
        guidSet.insert(guid)
    }

    var statuses: [Int] { lock.lock(); defer { lock.unlock() }; return statusList }
    var guids: Set<String> { lock.lock(); defer { lock.unlock() }; return guidSet }
}
