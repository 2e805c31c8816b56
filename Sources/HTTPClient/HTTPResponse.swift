/// A complete HTTP response: any status code, including 4xx and 5xx, is a response and not an error.
public struct HTTPResponse: Sendable {
    /// The status code of the final response (redirects are not followed, so a 302 is returned as is).
    public let status: Int
    /// Header fields of the final response in arrival order, names as sent, values trimmed.
    public let headers: [(String, String)]
    /// The body as received (no content decoding), at most the client's `maxResponseBytes`.
    public let body: [UInt8]

    /// Creates a response value (the client builds these; tests may too).
    public init(status: Int, headers: [(String, String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the first header field called `name` (compared case-insensitively), or nil.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.0.lowercased() == wanted }?.1
    }
}
