import Foundation

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

    /// A TCP port on 127.0.0.1 that nothing listens on right now.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw Failure(command: ["bind"], status: errno, output: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
