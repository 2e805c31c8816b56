/// The router's answer for one request.
public enum RouteMatch<Route: Sendable>: Sendable {
    /// A route matched; `pattern` is the pattern it was added with (a low-cardinality metrics label).
    case found(Route, pattern: String)
    /// The path matched, but not for this method; `allowed` lists the methods that would (for `Allow`).
    case methodNotAllowed(allowed: [Method])
    /// No pattern matched the path.
    case notFound
}
