import API
@testable import Domain
@testable import HTTPServer

/// `request-target`: the bytes as the request-target of a request line (`RequestTarget`), then routed (`Route`).
///
/// Properties: without `?` there is no query; an absolute-form target (`http://host` + path) splits like its path;
/// a target built by percent-encoding a path and query pairs (fields of the input) decodes to exactly those texts;
/// `percentDecode` undoes percent-encoding of any bytes; a matched route's pattern with its parameters put back is
/// the path, and parameters are non-empty and hold no `/` byte; a 405 never lists the method it refused.
enum RequestTargetFuzz {
    static let target = FuzzTarget(name: "request-target", maxLength: 2048, run: run)

    static func run(_ bytes: [UInt8]) {
        let target = RequestTarget(raw: bytes)
        if !bytes.contains(UInt8(ascii: "?")) {
            check(target.rawQuery.isEmpty && target.query.isEmpty, "a query without '?': \(target)")
        }
        checkAbsoluteForm(bytes)
        checkEncodedRoundTrip(bytes)
        let encoded = Array(ASCII.percentEncode(text(bytes)).utf8)
        let decoded = RequestTarget.percentDecode(encoded[...], plusIsSpace: true)
        check(decoded == Array(text(bytes).utf8), "percentDecode(percentEncode(x)) != x")
        checkRoute(target.path)
    }

    /// `http://<host><rest>` splits like `<rest>` with a `/` in front where it has none (RFC 3986 §3.2: the
    /// authority ends at the first `/`, `?` or `#`), for a host made of the first field without those three and
    /// `rest` the other fields joined (with a `/` in front unless it starts with one of them).
    private static func checkAbsoluteForm(_ bytes: [UInt8]) {
        let parts = fields(bytes)
        guard parts.count >= 2 else { return }
        let delimiters = Array("/?#".utf8)
        let host = parts[0].filter { !delimiters.contains($0) }
        var rest = Array(parts[1...].joined(separator: [0]))
        if let first = rest.first, !delimiters.contains(first) { rest.insert(UInt8(ascii: "/"), at: 0) }
        let origin = rest.first == UInt8(ascii: "/") ? rest : [UInt8(ascii: "/")] + rest
        let absolute = RequestTarget(raw: Array("http://".utf8) + host + rest)
        let expected = RequestTarget(raw: origin)
        check(absolute == expected,
              "http://\(text(host))\(text(rest)) → \(absolute), but \(text(origin)) → \(expected)")
    }

    /// Fields [path, name1, value1, name2, value2, …] percent-encoded into `/path?name1=value1&…` decode back to
    /// the same texts (the last value wins for a repeated name).
    private static func checkEncodedRoundTrip(_ bytes: [UInt8]) {
        let parts = fields(bytes).map { text($0) }
        var expectedQuery: [String: String] = [:]
        var pairs: [String] = []
        var index = 1
        while index + 1 < parts.count {
            expectedQuery[parts[index]] = parts[index + 1]
            pairs.append(ASCII.percentEncode(parts[index]) + "=" + ASCII.percentEncode(parts[index + 1]))
            index += 2
        }
        let raw = "/" + ASCII.percentEncode(parts[0]) + (pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&"))
        let target = RequestTarget(raw: Array(raw.utf8))
        check(target.path == "/" + parts[0], "\(raw) decodes to path '\(target.path)', not '/\(parts[0])'")
        check(target.query == expectedQuery, "\(raw) decodes to \(target.query), not \(expectedQuery)")
    }

    private static func checkRoute(_ path: String) {
        let normalized = path.utf8.first == UInt8(ascii: "/") ? path : "/" + path
        for method in [Method.get, .head, .post, .patch, .put, .delete, .other("get")] {
            switch Route.router.match(method, path) {
            case .found(let route, let pattern):
                let parameters = parameters(of: route)
                var filled = pattern
                for (name, value) in parameters {
                    check(!value.isEmpty && !value.utf8.contains(UInt8(ascii: "/")),
                          "\(route): parameter '\(value)' from \(path)")
                    filled = filled.replacing("{\(name)}", with: value)
                }
                check(filled == normalized, "\(method) \(path) matched \(pattern), which reads \(filled)")
            case .methodNotAllowed(let allowed):
                check(!allowed.isEmpty && !allowed.contains(method), "\(method) \(path): 405 allowing \(allowed)")
            case .notFound:
                break
            }
        }
    }

    /// The path parameters a route carries, by their name in the pattern.
    private static func parameters(of route: Route) -> [(String, String)] {
        switch route {
        case .user(let guid), .userEntitlements(let guid), .eraseUser(let guid): [("guid", guid)]
        case .refundPayment(let paymentId): [("paymentId", paymentId)]
        case .userTimeline(let guid): [("guid", guid)]
        case .paymentTimeline(let paymentId): [("paymentId", paymentId)]
        case .dashboard(let token): [("token", token)]
        case .postPaymentPage(let pageToken): [("pageToken", pageToken)]
        case .app(let appId), .updateApp(let appId), .rotateStoreToken(let appId), .addDestination(let appId),
             .appDeliveries(let appId), .appInstalls(let appId):
            [("appId", appId)]
        case .appRecordings(let appId): [("appId", appId)]
        case .createReplayLink(let appId): [("appId", appId)]
        case .replay(let token), .replayEvents(let token): [("token", token)]
        case .replayAsset(let token, let sha): [("token", token), ("sha", sha)]
        case .revokeProxyKey(let proxyKeyId): [("proxyKeyId", proxyKeyId)]
        case .storeNotification(_, let token): [("token", token)]
        case .forwardedNotification(let surfaceId): [("surfaceId", surfaceId)]
        case .removeDestination(let appId, let destinationId): [("appId", appId), ("destinationId", destinationId)]
        case .affiliateLink(let refCode): [("refCode", refCode)]
        case .affiliateStatement(let affiliateId): [("affiliateId", affiliateId)]
        case .ingestConfig(let publishableKey): [("pk", publishableKey)]
        case .appLeads(let appId): [("appId", appId)]
        case .goLink(let ref): [("ref", ref)]
        case .ingestPostback(let kind, let endpoint, _): [("kind", kind), ("endpoint", endpoint)]
        case .appPostbacks(let appId): [("appId", appId)]
        case .appConversions(let appId), .appSessions(let appId): [("appId", appId)]
        case .appExport(let appId): [("appId", appId)]
        case .eraseAppUsers(let project): [("project", project)]
        default: []
        }
    }
}
