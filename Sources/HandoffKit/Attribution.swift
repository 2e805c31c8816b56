import Foundation

/// Affiliate attribution for one app account: binds a referral (a link's click id or a typed code) to the account's
/// App Store `appAccountToken`, keeps it, and hands the token to purchases without a network call.
///
/// ```swift
/// let attribution = Attribution(projectId: id, baseURL: url, tokenStore: KeychainTokenStore(accountID: account))
/// _ = try? await attribution.resolveToken(signedClickId: click, refCode: nil)   // when a link or code arrives
/// try await product.purchase(options: attribution.purchaseOptions())           // every purchase
/// ```
public final class Attribution: Sendable {
    public let projectId: String
    public let baseURL: URL
    public let tokenStore: KeychainTokenStore
    /// The account's buyer id, sent with the bind so the referral rides that guid's own token; nil binds a token
    /// of the click's own (kept per account by the store).
    public let guid: String?
    private let transport: HTTPTransport

    /// Attribution for the account of `tokenStore` in project `projectId`.
    public init(projectId: String, baseURL: URL, tokenStore: KeychainTokenStore, guid: String? = nil,
                timeout: TimeInterval = 15, retry: RetryPolicy = RetryPolicy(),
                log: (@Sendable (String) -> Void)? = nil) {
        self.projectId = projectId
        self.baseURL = baseURL
        self.tokenStore = tokenStore
        self.guid = guid
        transport = HTTPTransport(timeout: timeout, retry: retry, log: log)
    }

    /// Binds the referral (`POST /v1/app-store/bind`) and keeps the answer: give exactly one of the landing URL's
    /// `click` parameter (unchanged) and a code the buyer typed (trimmed and upper-cased here as on the server).
    ///
    /// First touch wins: while the kept binding's window is open and no guid is set, it is answered again without a
    /// call (with a guid, the server keeps the first referral itself and answers the same token).
    public func resolveToken(signedClickId: String?, refCode: String?) async throws(AttributionError)
        -> ReferralBinding {
        let click = signedClickId?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let code = refCode?.trimmingCharacters(in: .whitespacesAndNewlines).uppercased() ?? ""
        guard click.isEmpty != code.isEmpty else { throw .clickOrCodeRequired }
        if guid == nil, let kept = tokenStore.binding(), let end = kept.expiresAt, end > Date() { return kept }
        var body = ["projectId": projectId, click.isEmpty ? "refCode" : "signedClickId": click.isEmpty ? code : click]
        if let guid { body["guid"] = guid }
        let answer: ServerAnswer
        do {
            answer = try await transport.send("POST", endpoint("/v1/app-store/bind"),
                                              body: try? JSONSerialization.data(withJSONObject: body))
        } catch {
            throw .network(timedOut: error.timedOut)
        }
        switch answer.status {
        case 200:
            guard let bound = try? answer.data(Bound.self), let token = UUID(uuidString: bound.appAccountToken) else {
                throw .unexpectedAnswer(status: 200)
            }
            let binding = ReferralBinding(appAccountToken: token, offerCode: bound.offerCode,
                                          expiresAt: bound.expiresAt.flatMap(Instant.parse))
            guard tokenStore.save(binding) else { throw .tokenHeldByAnotherAccount }
            return binding
        case 400, 413: throw .invalidInput(code: answer.machineCode)
        case 404: throw .noReferral
        case 429: throw .rateLimited(retryAfter: answer.retryAfter ?? 60)
        case 503: throw .serverUnavailable(retryAfter: answer.retryAfter)
        default: throw .unexpectedAnswer(status: answer.status)
        }
    }

    /// The account's kept binding (token and offer code), nil before a referral was bound.
    public func binding() -> ReferralBinding? {
        tokenStore.binding()
    }

    /// The token for the account's purchases: read from the store, no network call, never throws; nil when no
    /// referral was bound (buy without a token then).
    public func appAccountToken() -> UUID? {
        tokenStore.binding()?.appAccountToken
    }

    private struct Bound: Decodable {
        let appAccountToken: String
        let offerCode: String?
        let expiresAt: String?
    }

    private func endpoint(_ path: String) -> URL {
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + path) ?? baseURL
    }
}
