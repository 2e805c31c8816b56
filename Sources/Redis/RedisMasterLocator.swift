import Foundation
import Synchronization

/// Which server is the Redis master, as the Sentinels say, with an epoch that grows each time the answer changes.
///
/// Asks at most every `checkInterval` seconds (`.ifDue`; one caller asks while the others keep the last answer), or
/// at once (`.now`) after a connection failed. Each question opens a short connection to a Sentinel and sends
/// `SENTINEL get-master-addr-by-name`; the Sentinels are tried in order until one answers.
final class RedisMasterLocator: Sendable {
    /// When to ask the Sentinels rather than keep the last answer.
    enum Freshness {
        case ifDue
        case now
    }

    private struct State {
        var master: RedisEndpoint.Address?
        var epoch = 0
        var checkedAt: UInt64 = 0
        var checking = false
    }

    private let sentinel: RedisSentinelConfiguration
    private let connectTimeout: Double
    private let commandTimeout: Double
    private let state = Mutex(State())

    init(sentinel: RedisSentinelConfiguration, connectTimeout: Double, commandTimeout: Double) {
        self.sentinel = sentinel
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
    }

    /// The master's address and the epoch of that answer.
    ///
    /// - Throws: `.connectFailed` when no Sentinel answered and there is no earlier answer to fall back on.
    func master(_ freshness: Freshness) throws -> (address: RedisEndpoint.Address, epoch: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        let interval = UInt64(sentinel.checkInterval * 1e9)
        let cached = state.withLock { state -> (RedisEndpoint.Address, Int)? in
            guard let master = state.master else { return nil }
            let due = freshness == .now || now &- state.checkedAt >= interval
            if due, !state.checking {
                state.checking = true
                return nil
            }
            return (master, state.epoch)
        }
        if let cached { return cached }
        let answer = Result { try ask() }
        return try state.withLock { state in
            state.checking = false
            switch answer {
            case .success(let address):
                state.checkedAt = DispatchTime.now().uptimeNanoseconds
                if state.master != address {
                    state.master = address
                    state.epoch += 1
                }
                return (address, state.epoch)
            case .failure(let error):
                guard let master = state.master else { throw error }
                return (master, state.epoch)
            }
        }
    }

    /// Makes the next `.ifDue` call ask the Sentinels (a connection to the master failed).
    func markDue() {
        state.withLock { $0.checkedAt = 0 }
    }

    private func ask() throws -> RedisEndpoint.Address {
        var failures: [String] = []
        for endpoint in sentinel.endpoints {
            let address = RedisEndpoint.Address.tcp(host: endpoint.host, port: endpoint.port)
            do {
                let connection = try RedisConnection(endpoint: RedisEndpoint(address: address),
                                                     connectTimeout: connectTimeout, commandTimeout: commandTimeout)
                let reply = try connection.command(["SENTINEL", "get-master-addr-by-name", sentinel.masterName])
                guard let parts = reply.elements, parts.count == 2, let host = parts[0].string,
                      let portText = parts[1].string, let port = Int(portText) else {
                    failures.append("\(address.display) does not know \(sentinel.masterName)")
                    continue
                }
                return .tcp(host: host, port: port)
            } catch let error as RedisError {
                failures.append("\(address.display): \(error.message)")
            }
        }
        throw RedisError(.connectFailed, "no Sentinel named the master: " + failures.joined(separator: "; "))
    }
}
