import Foundation
import Synchronization

/// Runs programs for tests and returns what they printed.
public enum Shell {
    /// A program that exited non-zero.
    public struct Failure: Error, CustomStringConvertible {
        public let command: [String]
        public let status: Int32
        public let output: String
        public var description: String { "\(command.joined(separator: " ")) exited \(status): \(output)" }
    }

    /// Runs `arguments` (the first is looked up on PATH), waits (at most `timeout` seconds), and returns
    /// stdout+stderr; throws on a non-zero exit.
    @discardableResult
    public static func run(_ arguments: [String], environment: [String: String]? = nil,
                           timeout: Double = 120) throws -> String {
        var merged: [String: String]? = nil
        if let environment { merged = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let child = try ChildProcess(arguments, environment: merged)
        let termination = try child.wait(timeout: timeout)
        let output = child.output()
        guard termination == .exited(0) else {
            let status: Int32
            switch termination {
            case .exited(let code): status = code
            case .signalled(let signal): status = 128 + signal
            }
            throw Failure(command: arguments, status: status, output: output)
        }
        return output
    }

    /// Runs a program as the OS user that may run Postgres (via `runuser` when the tests run as root).
    @discardableResult
    public static func runAsPostgresUser(_ arguments: [String]) throws -> String {
        let user = try TestEnvironment.postgresOSUser()
        if getuid() == 0 && user != "root" {
            return try run(["runuser", "-u", user, "--"] + arguments)
        }
        return try run(arguments)
    }

    /// Ports below the kernel's ephemeral range (`ip_local_port_range`, 32768–60999 by default), from which
    /// `freePort` picks: an outgoing connection's local port is never taken from here, so a port picked free stays
    /// free until the test's own child binds it. Picking with `bind(port 0)` took it from the ephemeral range, where
    /// any of the suite's thousands of outgoing connections could take it first (CI: "Address already in use").
    static let freePortRange = 20000..<32768

    /// Ports this process has handed out: never handed out twice, so two tests never race for one.
    private static let handedOut = Mutex<Set<Int>>([])

    /// A TCP port on 127.0.0.1 that nothing is bound to right now, picked at random below the ephemeral range and
    /// never the same twice in this process.
    public static func freePort() throws -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: freePortRange)
            guard handedOut.withLock({ $0.insert(port).inserted }) else { continue }
            if canBind(port) { return port }
        }
        throw Failure(command: ["bind"], status: -1, output: "no free port in \(freePortRange) after 200 tries")
    }

    /// Whether a listening socket could bind 127.0.0.1:`port` now (without `SO_REUSEADDR`, so a port still in
    /// TIME_WAIT counts as taken).
    private static func canBind(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
