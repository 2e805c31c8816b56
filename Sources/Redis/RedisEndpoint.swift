/// A parsed Redis URL: the address plus the credentials and database a new connection applies.
struct RedisEndpoint: Sendable, Equatable {
    /// Where the server listens.
    enum Address: Sendable, Equatable {
        case tcp(host: String, port: Int)
        case unix(path: String)
    }

    var address: Address
    var username: String?
    var password: String?
    var database: Int

    init(address: Address, username: String? = nil, password: String? = nil, database: Int = 0) {
        self.address = address
        self.username = username
        self.password = password
        self.database = database
    }

    /// Parses `redis://[[user]:password@]host[:port][/db]` or `unix:///path[?db=N]`.
    ///
    /// Error messages never repeat the URL, which may hold a password.
    init(url: String) throws {
        let lowered = url.lowercased()
        if lowered.hasPrefix("redis://") {
            try self.init(redisURLRemainder: String(url.dropFirst("redis://".count)))
        } else if lowered.hasPrefix("unix://") {
            try self.init(unixURLRemainder: String(url.dropFirst("unix://".count)))
        } else {
            throw RedisEndpoint.invalid("the URL must start with redis:// or unix://")
        }
    }

    private init(redisURLRemainder remainder: String) throws {
        if remainder.contains("?") || remainder.contains("#") {
            throw RedisEndpoint.invalid("query strings and fragments are not supported")
        }
        let authorityEnd = remainder.firstIndex(of: "/") ?? remainder.endIndex
        var authority = Substring(remainder[..<authorityEnd])
        let path = remainder[authorityEnd...]

        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            authority = authority[authority.index(after: at)...]
            guard let colon = userInfo.firstIndex(of: ":") else {
                throw RedisEndpoint.invalid("credentials must be written [user]:password@")
            }
            let user = try RedisEndpoint.percentDecoded(userInfo[..<colon])
            username = user.isEmpty ? nil : user
            let secret = try RedisEndpoint.percentDecoded(userInfo[userInfo.index(after: colon)...])
            password = secret.isEmpty ? nil : secret
            if password == nil && username != nil {
                throw RedisEndpoint.invalid("a user needs a password")
            }
        }

        let host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw RedisEndpoint.invalid("unterminated IPv6 address")
            }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let rest = authority[authority.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw RedisEndpoint.invalid("unexpected text after IPv6 address") }
                portText = rest.dropFirst()
            }
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty else { throw RedisEndpoint.invalid("the host is missing") }
        guard host.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "/" && $0 != "@" }) else {
            throw RedisEndpoint.invalid("the host has characters a host name cannot have")
        }
        var port = 6379
        if let portText {
            guard let parsed = RedisEndpoint.decimal(portText), (1...65_535).contains(parsed) else {
                throw RedisEndpoint.invalid("the port must be a number from 1 to 65535")
            }
            port = parsed
        }
        address = .tcp(host: String(host), port: port)

        let databaseText = path.drop { $0 == "/" }
        if path.dropFirst().contains("/") { throw RedisEndpoint.invalid("the path must be /db") }
        if databaseText.isEmpty {
            database = 0
        } else {
            guard let parsed = RedisEndpoint.decimal(databaseText) else {
                throw RedisEndpoint.invalid("the database must be a non-negative number")
            }
            database = parsed
        }
    }

    private init(unixURLRemainder remainder: String) throws {
        var path = Substring(remainder)
        database = 0
        if let question = path.firstIndex(of: "?") {
            let query = path[path.index(after: question)...]
            path = path[..<question]
            for pair in query.split(separator: "&") {
                guard pair.hasPrefix("db="), let parsed = RedisEndpoint.decimal(pair.dropFirst(3)) else {
                    throw RedisEndpoint.invalid("the only query parameter of a unix URL is db=N")
                }
                database = parsed
            }
        }
        guard path.hasPrefix("/"), path.count > 1 else {
            throw RedisEndpoint.invalid("a unix URL needs an absolute socket path: unix:///path/to/redis.sock")
        }
        address = .unix(path: try RedisEndpoint.percentDecoded(path))
    }

    private static func decimal(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    private static func percentDecoded(_ text: Substring) throws -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next(), let low = iterator.next(),
                  let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16),
                  [high, low].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") }) else {
                throw invalid("a percent escape is malformed")
            }
            bytes.append(value)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func invalid(_ reason: String) -> RedisError {
        RedisError(.invalidURL, "invalid Redis URL: \(reason)")
    }
}

extension RedisEndpoint.Address {
    /// The address for error messages (never includes credentials).
    var display: String {
        switch self {
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .unix(let path): path
        }
    }
}
