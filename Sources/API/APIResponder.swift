import Commands
import Domain
import Foundation
import HTTPServer
import Telemetry

/// The edge of the API: routes a request, runs its handler, maps every error once, and adds the
/// request id, the metrics sample and the access-log line to every answer.
public struct APIResponder: Responder {
    public let environment: Environment
    private let router: Router<Route>

    public init(environment: Environment) {
        self.environment = environment
        self.router = Route.router
    }

    public func respond(to request: Request) -> Response {
        let started = ContinuousClock.now
        let requestID = RequestID.make(incoming: request.headers["X-Request-Id"])
        var pattern = "unmatched"
        var response: Response
        switch router.match(request.method, request.path) {
        case .found(let route, let routePattern):
            pattern = routePattern
            response = run(route, request, requestID: requestID, pattern: routePattern)
        case .methodNotAllowed(let allowed):
            let methods = allowed.map(\.rawValue).joined(separator: ", ")
            if Self.isIngestPath(request.path) {
                response = IngestResponse.error(.methodNotAllowed)
                response.headers.add("Allow", methods)
            } else {
                response = JSONResponse.error(APIError(
                    status: 405, code: .methodNotAllowed, message: "this path takes \(methods)",
                    headers: ["Allow": methods]))
            }
        case .notFound:
            response = Self.isIngestPath(request.path) ? IngestResponse.error(.notFound) : JSONResponse.error(.notFound)
        }
        finish(&response, request: request, requestID: requestID, pattern: pattern, started: started)
        return response
    }

    /// Whether an unrouted path is the app SDKs' (`/v1/m/…`, not the store URLs): its 404 and 405 are compact too.
    static func isIngestPath(_ path: String) -> Bool {
        path.hasPrefix("/v1/m/") && !path.hasPrefix("/v1/m/store/")
    }

    public func bodyLimit(for method: HTTPServer.Method, path: String) -> Int {
        if case .found(let route, _) = router.match(method, path), let limit = route.bodyLimit {
            return limit
        }
        return environment.defaultBodyLimit
    }

    public func payloadTooLarge(_ request: Request) -> Response {
        let started = ContinuousClock.now
        let requestID = RequestID.make(incoming: request.headers["X-Request-Id"])
        let limit = bodyLimit(for: request.method, path: request.path)
        var pattern = "unmatched"
        if case .found(let route, let routePattern) = router.match(request.method, request.path) {
            pattern = routePattern
            if route.isIngest {
                var response = IngestResponse.error(.tooLarge)
                finish(&response, request: request, requestID: requestID, pattern: pattern, started: started)
                return response
            }
        }
        var response = JSONResponse.error(APIError(
            status: 413, code: .payloadTooLarge,
            message: "the body is larger than the \(limit) bytes this endpoint accepts"))
        finish(&response, request: request, requestID: requestID, pattern: pattern, started: started)
        return response
    }

    /// Authenticates and rate-limits S2S routes, runs the handler; a typed refusal becomes its JSON body, a database
    /// outage a 503 with `Retry-After` (`DatabaseOutage`), anything else a generic 500.
    private func run(_ route: Route, _ request: Request, requestID: String, pattern: String) -> Response {
        do {
            var context = RequestContext(requestID: requestID)
            var request = request
            if route.servesFirstPartyProxy, let key = request.headers[ProxyKey.header] {
                // Behind an organization's first-party proxy every visitor arrives from the proxy's address: with a
                // valid proxy key the client is the one the proxy forwarded for (rate limits, visitor hash, leads).
                context.proxyOrg = try environment.model.links.proxyKeys.org(of: key)
                if context.proxyOrg != nil, let forwarded = request.forwardedClientIP { request.clientIP = forwarded }
            }
            if route.access == .secretKey {
                context.keyHolder = try SecretKeyAuthentication.authenticate(request, environment)
            }
            let response = try Handlers.handle(route, request, context, environment)
            if let writer = context.keyHolder?.prefix, request.method != .get, response.status < 300 {
                // Read-your-writes on a replica (`DATABASE_READ_URL`); a no-op without one.
                environment.model.reads.recordWrite(by: writer)
            }
            return response
        } catch let refusal as IngestRefusal {
            return IngestResponse.error(refusal)
        } catch let refusal as APIError where route.isIngest {
            return IngestResponse.error(IngestResponse.refusal(for: refusal) ?? IngestResponse.internalError)
        } catch let refusal as APIError {
            return JSONResponse.error(refusal)
        } catch let refusal as Refusal {
            return JSONResponse.error(APIError(refusal))
        } catch {
            if let outage = DatabaseOutage.refusal(for: error) {
                environment.logger.warning("database outage", [
                    "request_id": .string(requestID), "route": .string(pattern),
                    "error": .string(String(describing: error)),
                ])
                if route.isIngest { return IngestResponse.error(.unavailable()) }
                return JSONResponse.error(APIError(outage))
            }
            environment.logger.error("unhandled error", [
                "request_id": .string(requestID), "route": .string(pattern),
                "error": .string(String(describing: error)),
            ])
            if route.isIngest { return IngestResponse.error(IngestResponse.internalError) }
            return JSONResponse.error(APIError(
                status: 500, code: .internalError, message: "internal error (request id \(requestID))"))
        }
    }

    private func finish(_ response: inout Response, request: Request, requestID: String, pattern: String,
                        started: ContinuousClock.Instant) {
        response.headers.add("X-Request-Id", requestID)
        let elapsed = started.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        environment.metrics.recordRequest(
            route: pattern, method: request.method.rawValue, status: response.status, seconds: seconds)
        environment.logger.request(id: requestID, method: request.method.rawValue, route: pattern,
                                   status: response.status, microseconds: Int((seconds * 1_000_000).rounded()))
    }
}
