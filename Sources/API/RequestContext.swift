import Commands
import Domain

/// What the edge learned about a request before its handler runs: its id and, on S2S routes, whose key it carries.
public struct RequestContext: Sendable, Equatable {
    /// The `X-Request-Id` of this request.
    public var requestID: String
    /// The live key's holder on `.secretKey` routes; nil on open routes.
    public var keyHolder: ProjectLookup.KeyHolder?
    /// The organization of the valid proxy key (`X-Handoff-Proxy-Key`) on a route a first-party proxy serves; nil
    /// without the header, with a wrong key, and on other routes.
    public var proxyOrg: OrgID?

    public init(requestID: String, keyHolder: ProjectLookup.KeyHolder? = nil) {
        self.requestID = requestID
        self.keyHolder = keyHolder
    }

    /// The key holder; a handler of a `.secretKey` route may rely on it (the edge refused the request otherwise).
    func tenant() throws -> ProjectLookup.KeyHolder {
        guard let holder = keyHolder else { throw APIError.unauthorized("a secret key is required") }
        return holder
    }
}
