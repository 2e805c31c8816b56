/// An HTTP request method.
///
/// Method names are case-sensitive (RFC 9110 §9.1): `"GET"` is `.get`, `"get"` is `.other("get")`.
public enum Method: Sendable, Hashable {
    case get, head, post, put, patch, delete, options
    /// Any other token the client sent, kept as written.
    case other(String)

    /// Reads a method token as it appears on the request line.
    public init(_ raw: String) {
        switch raw {
        case "GET": self = .get
        case "HEAD": self = .head
        case "POST": self = .post
        case "PUT": self = .put
        case "PATCH": self = .patch
        case "DELETE": self = .delete
        case "OPTIONS": self = .options
        default: self = .other(raw)
        }
    }

    /// The token as it appears on the request line (`"GET"`).
    public var rawValue: String {
        switch self {
        case .get: "GET"
        case .head: "HEAD"
        case .post: "POST"
        case .put: "PUT"
        case .patch: "PATCH"
        case .delete: "DELETE"
        case .options: "OPTIONS"
        case .other(let raw): raw
        }
    }
}

extension Method: CustomStringConvertible {
    public var description: String { rawValue }
}
