/// Maps (method, path) to a route value: routes are data, and the caller switches over them.
///
/// Patterns are literal segments and `{name}` parameters: `"/v1/store/apple/{token}"`. A parameter matches
/// one whole, non-empty segment of the decoded path. When several patterns match, the one with a literal
/// segment where the others have a parameter wins (left to right); among equals, the first added.
/// HEAD is answered by the GET route unless a HEAD route is added.
public struct Router<Route: Sendable>: Sendable {
    @usableFromInline var table = RouteTable()
    @usableFromInline var makers: [@Sendable ([String: String]) -> Route] = []

    /// Makes an empty router.
    public init() {}

    /// Adds a route: when `method` and `pattern` match, `make` turns the path parameters into the route value.
    public mutating func add(
        _ method: Method,
        _ pattern: String,
        _ make: @escaping @Sendable ([String: String]) -> Route
    ) {
        _ = table.add(method, pattern)
        makers.append(make)
    }

    /// Every pattern added, once each, in the order first added (for metric labels).
    public var patterns: [String] {
        var seen: Set<String> = []
        return table.entries.map(\.pattern).filter { seen.insert($0).inserted }
    }

    /// Finds the route for a request; `path` is the decoded path without the query. Inlinable, so that it is
    /// specialized for the caller's route type (unspecialized, every call looked up `RouteMatch<Route>`'s metadata).
    @inlinable
    public func match(_ method: Method, _ path: String) -> RouteMatch<Route> {
        switch table.lookup(method, path) {
        case .found(let index, let parameters):
            return .found(makers[index](parameters), pattern: table.entries[index].pattern)
        case .methodNotAllowed(let allowed):
            return .methodNotAllowed(allowed: allowed)
        case .notFound:
            return .notFound
        }
    }
}
