#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Why `Server.start()` failed.
public enum ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A configuration value the server cannot use, with the reason.
    case invalidConfiguration(String)
    /// A socket call failed while opening the listening socket (`"bind 127.0.0.1:8080"`), with `errno`.
    case socket(operation: String, errno: Int32)
    /// libmicrohttpd refused to start (it does not say why; usually threads or options).
    case daemonDidNotStart
    /// `start()` was called on a server that is running or has been stopped.
    case alreadyStarted

    public var description: String {
        switch self {
        case .invalidConfiguration(let reason): "invalid server configuration: \(reason)"
        case .socket(let operation, let code):
            "\(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .daemonDidNotStart: "libmicrohttpd did not start the daemon"
        case .alreadyStarted: "the server was already started"
        }
    }

    /// Whether the failure was the address being in use by another socket.
    public var isAddressInUse: Bool {
        if case .socket(_, let code) = self { return code == EADDRINUSE }
        return false
    }
}
