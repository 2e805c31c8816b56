import Domain
import Foundation
import HTTPClient
import Synchronization

/// A client of the Google Play Developer API for one app's service account: reads subscription purchases
/// (`purchases.subscriptionsv2.get`) and one-time product purchases (`purchases.products.get`).
///
/// It signs in with the OAuth 2 JWT-bearer grant (an RS256 assertion signed with the account's key, exchanged at the
/// key's `token_uri`) and keeps the access token until a minute before it expires; a 401 from the API drops it and
/// the call is tried once more with a fresh one. Calls block the calling thread (a worker's, never Swift `async`
/// code) for at most two HTTP exchanges plus the token exchange. Thread-safe; make one per app key and keep it.
public final class PlayDeveloperAPI: Sendable {
    /// Google's endpoint (`GOOGLE_PLAY_API_BASE_URL` overrides it).
    public static let defaultBaseURL = "https://androidpublisher.googleapis.com"
    /// The OAuth scope of the Play Developer API.
    public static let scope = "https://www.googleapis.com/auth/androidpublisher"
    /// How long before its expiry an access token is replaced.
    public static let refreshMargin: TimeInterval = 60

    public let key: ServiceAccountKey
    /// The API's base URL, without a trailing `/`.
    public let baseURL: String
    private let client: HTTPClient
    private let clock: @Sendable () -> Date
    private let cachedToken = Mutex<AccessToken?>(nil)

    /// A client for `key` against `baseURL` (a trailing `/` is dropped), sending with `client` and reading time
    /// from `clock`.
    public init(key: ServiceAccountKey, baseURL: String = defaultBaseURL, client: HTTPClient = HTTPClient(),
                clock: @escaping @Sendable () -> Date = { Date() }) {
        self.key = key
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.client = client
        self.clock = clock
    }

    /// The subscription purchase `token` of the app `packageName` (`purchases.subscriptionsv2.get`).
    public func subscription(packageName: String, token: String) -> Result<SubscriptionPurchase, Failure> {
        let path = "/androidpublisher/v3/applications/\(Self.segment(packageName))/purchases/subscriptionsv2/tokens/"
            + Self.segment(token)
        return get(path).flatMap(SubscriptionPurchase.parse)
    }

    /// The one-time purchase `token` of `productId` in the app `packageName` (`purchases.products.get`).
    public func product(packageName: String, productId: String, token: String) -> Result<ProductPurchase, Failure> {
        let path = "/androidpublisher/v3/applications/\(Self.segment(packageName))/purchases/products/"
            + "\(Self.segment(productId))/tokens/\(Self.segment(token))"
        return get(path).flatMap(ProductPurchase.parse)
    }

    /// GETs `path` with the access token; the 200 body, or the failure its status means.
    private func get(_ path: String) -> Result<[UInt8], Failure> {
        var retried = false
        while true {
            let token: String
            switch accessToken() {
            case .success(let value): token = value
            case .failure(let failure): return .failure(failure)
            }
            let request = HTTPRequest(url: baseURL + path, headers: [
                ("Authorization", "Bearer \(token)"), ("Accept", "application/json"),
            ])
            let response: HTTPResponse
            do {
                response = try client.send(request)
            } catch {
                return .failure(.transport(error.description))
            }
            switch response.status {
            case 200: return .success(response.body)
            case 401 where !retried:
                // The token was revoked or expired early: forget it and sign in once more.
                cachedToken.withLock { if $0?.value == token { $0 = nil } }
                retried = true
            case 401, 403: return .failure(.denied(status: response.status))
            case 404, 410: return .failure(.notFound)
            case 429, 500...599: return .failure(.unavailable(status: response.status))
            default: return .failure(.malformedResponse("unexpected status \(response.status)"))
            }
        }
    }

    /// The cached access token, or a new one from the token endpoint.
    private func accessToken() -> Result<String, Failure> {
        let now = clock()
        if let cached = cachedToken.withLock({ $0 }), now < cached.expiresAt - Self.refreshMargin {
            return .success(cached.value)
        }
        let request = HTTPRequest(
            method: "POST", url: key.tokenURI,
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
            body: Self.tokenRequestBody(assertion: Self.assertion(key: key, now: now)))
        let response: HTTPResponse
        do {
            response = try client.send(request)
        } catch {
            return .failure(.transport(error.description))
        }
        switch response.status {
        case 200:
            return Self.accessToken(from: response.body, now: now).map { token in
                cachedToken.withLock { $0 = token }
                return token.value
            }
        case 429, 500...599:
            return .failure(.unavailable(status: response.status))
        default:
            return .failure(.tokenRefused(status: response.status, error: Self.oauthError(from: response.body)))
        }
    }

    /// `text` percent-encoded as one path segment (everything but RFC 3986 unreserved characters).
    static func segment(_ text: String) -> String {
        var allowed = CharacterSet()
        allowed.insert(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// Decodes a 200 answer; a failure names the field at fault.
    static func decode<T: Decodable>(_ type: T.Type, _ body: [UInt8]) -> Result<T, Failure> {
        do {
            return .success(try JSONDecoder().decode(T.self, from: Data(body)))
        } catch let DecodingError.keyNotFound(key, context) {
            let path = (context.codingPath + [key]).map(\.stringValue).joined(separator: ".")
            return .failure(.malformedResponse("the answer has no \(path)"))
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context),
                let DecodingError.dataCorrupted(context) {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return .failure(.malformedResponse(path.isEmpty ? "the answer is not a JSON object" : "bad \(path)"))
        } catch {
            return .failure(.malformedResponse("the answer is not JSON"))
        }
    }

    /// An RFC 3339 instant (Google's `Timestamp`), nil when absent; anything else present is refused.
    static func instant<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> Date? {
        guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let date = RFC3339.parse(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not RFC 3339")
        }
        return date
    }

    /// An int64 as proto3 JSON sends it (a decimal string; a number is taken too), nil when absent.
    static func int64<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> Int64? {
        if let text = try? container.decodeIfPresent(String.self, forKey: key) {
            guard let value = Int64(text) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not an int64")
            }
            return value
        }
        return try container.decodeIfPresent(Int64.self, forKey: key)
    }
}
