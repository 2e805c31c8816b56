/// An IP address and TCP port to listen on, as `METRICS_ADDRESS` gives them (`127.0.0.1:9464`, `[::1]:9464`).
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// An IPv4 or IPv6 literal, without brackets.
    public var host: String
    /// 1–65535; 0 (set in code, never from the environment) picks a free port.
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `host:port`, an IPv6 host in brackets (`[::1]:9464`).
    public var description: String { "\(Self.urlHost(host)):\(port)" }

    /// `host` as it goes in a URL: an IPv6 literal in brackets.
    public static func urlHost(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }
}
