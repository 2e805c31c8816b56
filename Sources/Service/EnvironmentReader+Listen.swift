extension EnvironmentReader {
    /// An IPv4 or IPv6 literal (`127.0.0.1`, `0.0.0.0`, `::1`, `::`), without brackets.
    func ipAddress(_ name: String, default fallback: String) throws -> String {
        guard let raw = text(name) else { return fallback }
        guard IPAddressText.isIPv4(raw) || IPAddressText.isIPv6(raw) else {
            throw ConfigurationError(
                variable: name, problem: "must be an IPv4 or IPv6 address like 127.0.0.1 or :: (got \"\(raw)\")")
        }
        return raw
    }

    /// `host:port` with an IPv4 host or a bracketed IPv6 one (`127.0.0.1:9464`, `[::1]:9464`), port 1–65535; nil
    /// for `off`.
    func listenAddress(_ name: String, default fallback: ListenAddress) throws -> ListenAddress? {
        guard let raw = text(name) else { return fallback }
        if raw == "off" { return nil }
        let problem = "must be host:port (127.0.0.1:9464, [::1]:9464) with a port from 1 to 65535, or off "
            + "(got \"\(raw)\")"
        guard let colon = raw.lastIndex(of: ":"), let port = Int(raw[raw.index(after: colon)...]),
              (1...65535).contains(port) else {
            throw ConfigurationError(variable: name, problem: problem)
        }
        var host = String(raw[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
            guard IPAddressText.isIPv6(host) else { throw ConfigurationError(variable: name, problem: problem) }
        } else {
            guard IPAddressText.isIPv4(host) else { throw ConfigurationError(variable: name, problem: problem) }
        }
        return ListenAddress(host: host, port: port)
    }
}
