import Foundation

/// A child process started with `posix_spawn` and reaped with `waitpid`.
///
/// Foundation's `Process.waitUntilExit` was seen to hang here when several tests spawn at once, and pipes
/// keep readers waiting while a daemon the child started still holds them; so output goes to files.
public final class ChildProcess: @unchecked Sendable {
    /// How the child ended.
    public enum Termination: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)
    }

    public let pid: pid_t
    private let outputPath: String
    private let lock = NSLock()
    private var termination: Termination?

    /// Starts `arguments` (the first looked up on PATH). `environment` nil inherits this process's environment.
    /// Standard output and standard error both go to one file, read with `output()`.
    public init(_ arguments: [String], environment: [String: String]? = nil) throws {
        let folder = (try? TestEnvironment.scratchFolder()) ?? NSTemporaryDirectory()
        outputPath = folder + "/child-\(UInt64.random(in: 0...UInt64.max)).log"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let environmentPairs = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var child: pid_t = 0
        let status = Self.withCStrings(arguments) { argv in
            Self.withCStrings(environmentPairs) { envp in
                posix_spawnp(&child, arguments[0], &actions, &attributes, argv, envp)
            }
        }
        guard status == 0 else {
            throw Shell.Failure(command: arguments, status: status, output: String(cString: strerror(status)))
        }
        pid = child
    }

    deinit {
        if termination == nil {
            kill(pid, SIGCONT)
            kill(pid, SIGKILL)
            _ = try? wait()
        }
        unlink(outputPath)
    }

    /// Sends `signal` to the child.
    public func signal(_ signal: Int32) { kill(pid, signal) }

    /// Waits until the child ends; with `timeout` (seconds), kills it with SIGKILL once that passes.
    @discardableResult
    public func wait(timeout: Double? = nil) throws -> Termination {
        lock.lock()
        defer { lock.unlock() }
        if let termination { return termination }
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, deadline == nil ? 0 : WNOHANG)
            if result == pid { break }
            if result == -1 && errno != EINTR {
                throw Shell.Failure(command: ["waitpid"], status: errno, output: String(cString: strerror(errno)))
            }
            if let deadline, Date() > deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                break
            }
            if deadline != nil { usleep(10_000) }
        }
        let signalled = status & 0x7f
        let outcome: Termination = signalled == 0 ? .exited((status >> 8) & 0xff) : .signalled(signalled)
        termination = outcome
        return outcome
    }

    /// Everything the child wrote to standard output and standard error so far.
    public func output() -> String {
        (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { pointers.forEach { free($0) } }
        return body(pointers)
    }
}
