import Crypto
import Foundation
import HTTPClient
import Synchronization

/// The Play Developer API clients of a worker, one per service-account key (by the hex SHA-256 of the key's JSON
/// text), so that an app's access token is reused until it expires. A changed key makes a new client.
///
/// A key is refused (the `google-play` job then goes `dead`) when its file does not parse or when its `token_uri`
/// is neither one of Google's token endpoints nor on the origin of the API's base URL: the key file is the tenant's,
/// and the worker must not POST signed assertions wherever a tenant points it (a blind SSRF into the deployment's
/// network). Tests point the base URL at a stand-in whose token endpoint shares its origin.
public final class GooglePlayJobClients: Sendable {
    /// The token endpoints Google's key files name (current and historical).
    public static let googleTokenURIs: Set<String> = [
        "https://oauth2.googleapis.com/token", "https://accounts.google.com/o/oauth2/token",
        "https://www.googleapis.com/oauth2/v4/token",
    ]
    /// Keys kept at most; beyond that the cache starts over (clients are cheap, tokens are fetched again).
    static let capacity = 512

    /// The API's base URL (`GOOGLE_PLAY_API_BASE_URL`).
    public let baseURL: String
    private let client: HTTPClient
    private let clock: @Sendable () -> Date
    private let cache = Mutex<[String: PlayDeveloperAPI]>([:])

    init(baseURL: String, client: HTTPClient, clock: @escaping @Sendable () -> Date) {
        self.baseURL = baseURL
        self.client = client
        self.clock = clock
    }

    /// The client for the key file `keyJSON` (the app's sealed `googleServiceAccountKey`, opened), or why there is
    /// none (a text for `last_error`: it never repeats the key).
    public func client(keyJSON: String) -> Result<PlayDeveloperAPI, KeyRefusal> {
        let fingerprint = Hex.encode(SHA256.hash(Array(keyJSON.utf8)))
        if let kept = cache.withLock({ $0[fingerprint] }) { return .success(kept) }
        let key: PlayDeveloperAPI.ServiceAccountKey
        do {
            key = try PlayDeveloperAPI.ServiceAccountKey(json: Array(keyJSON.utf8))
        } catch {
            return .failure(KeyRefusal("the app's service-account key is not usable: \(error.message)"))
        }
        guard tokenURIAllowed(key.tokenURI) else {
            return .failure(KeyRefusal("the app's service-account key names a token_uri that is not Google's"))
        }
        let api = PlayDeveloperAPI(key: key, baseURL: baseURL, client: client, clock: clock)
        return .success(cache.withLock { cache in
            if let raced = cache[fingerprint] { return raced }
            if cache.count >= Self.capacity { cache.removeAll() }
            cache[fingerprint] = api
            return api
        })
    }

    /// Whether a key may exchange its assertion at `tokenURI`: one of Google's endpoints, or a URL on the base URL's
    /// own origin (scheme, host and port).
    public func tokenURIAllowed(_ tokenURI: String) -> Bool {
        if Self.googleTokenURIs.contains(tokenURI) { return true }
        guard let origin = Self.origin(of: tokenURI), let base = Self.origin(of: baseURL) else { return false }
        return origin == base
    }

    /// `scheme://host:port` of an http(s) URL, lower-cased, with the scheme's default port spelled out; nil for
    /// anything else (user info included).
    static func origin(of text: String) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host?.lowercased(), !host.isEmpty,
              components.user == nil, components.password == nil
        else { return nil }
        return "\(scheme)://\(host):\(components.port ?? (scheme == "https" ? 443 : 80))"
    }

    /// Why a key makes no client.
    public struct KeyRefusal: Error, Equatable, Sendable, CustomStringConvertible {
        public let reason: String

        init(_ reason: String) { self.reason = reason }

        public var description: String { reason }
    }
}
