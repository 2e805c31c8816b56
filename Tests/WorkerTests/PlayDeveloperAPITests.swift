import Crypto
import Foundation
import HTTPClient
import Synchronization
import Testing
import TestSupport
import Workers

/// The Play Developer API client against the local stand-in (`Tests/Peers/play_api.py`), which checks the RS256
/// assertion with the service account's public key and answers purchases only with the token it issued.
@Suite struct PlayDeveloperAPITests {
    typealias API = PlayDeveloperAPI

    /// A clock tests move; it starts at the real time because the stand-in judges `iat`/`exp` by its own clock.
    final class TestClock: Sendable {
        private let offset = Mutex<TimeInterval>(0)
        func now() -> Date { Date() + offset.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { offset.withLock { $0 += seconds } }
    }

    private func api(_ peer: PlayAPIPeer, clock: TestClock = TestClock(), keyFile: String? = nil) throws -> API {
        let key = try API.ServiceAccountKey(json: Array((keyFile ?? peer.keyFile()).utf8))
        return API(key: key, baseURL: peer.base + "/", clock: { clock.now() })
    }

    private func tokensIssued(_ peer: PlayAPIPeer) throws -> Int {
        try peer.stats()["tokensIssued"] as? Int ?? -1
    }

    @Test func aSubscriptionIsReadWithAnAccessTokenFromTheSignedAssertion() throws {
        let peer = try PlayAPIPeer()
        let purchase = try api(peer).subscription(packageName: "com.example.app", token: "sub-token-1").get()
        #expect(purchase == API.SubscriptionPurchase(
            subscriptionState: "SUBSCRIPTION_STATE_ACTIVE", acknowledgementState: "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED",
            obfuscatedExternalAccountId: "buyer-guid-123", latestOrderId: "GPA.3345-1234-5678-90123",
            startTime: Date(timeIntervalSince1970: 1_749_988_800), linkedPurchaseToken: nil, isTestPurchase: true,
            lineItems: [API.SubscriptionPurchase.LineItem(
                productId: "monthly001", expiryTime: Date(timeIntervalSince1970: 1_752_580_800.123),
                latestSuccessfulOrderId: "GPA.3345-1234-5678-90123..1",
                recurringPrice: API.Price(currencyCode: "USD", units: 9, nanos: 990_000_000),
                autoRenewEnabled: true)]))
        #expect(purchase.orderId == "GPA.3345-1234-5678-90123..1")
        #expect(purchase.expiryTime == Date(timeIntervalSince1970: 1_752_580_800.123))
        #expect(purchase.lineItems.first?.recurringPrice?.micros == 9_990_000)

        let stats = try peer.stats()
        #expect(stats["tokensIssued"] as? Int == 1)
        #expect((stats["lastAuthorization"] as? String)?.hasPrefix("Bearer ya29.stand-in-") == true)
        let assertion = try #require((stats["assertions"] as? [[String: Any]])?.first)
        #expect(assertion["header"] as? [String: String] == ["alg": "RS256", "typ": "JWT", "kid": "0123456789abcdef"])
        let claims = try #require(assertion["claims"] as? [String: Any])
        #expect(claims["iss"] as? String == PlayAPIPeer.clientEmail)
        #expect(claims["scope"] as? String == "https://www.googleapis.com/auth/androidpublisher")
        #expect(claims["aud"] as? String == peer.base + "/token")
        let (issuedAt, expiresAt) = (claims["iat"] as? Int ?? 0, claims["exp"] as? Int ?? 0)
        #expect(expiresAt - issuedAt == 3600)
        #expect(abs(Double(issuedAt) - Date().timeIntervalSince1970) < 30)
    }

    @Test func aOneTimeProductPurchaseIsRead() throws {
        let peer = try PlayAPIPeer()
        let purchase = try api(peer).product(packageName: "com.example.app", productId: "coins_100",
                                             token: "otp-token-1").get()
        #expect(purchase == API.ProductPurchase(
            purchaseState: API.ProductPurchase.purchased, orderId: "GPA.9876-5432-1098-76543",
            obfuscatedExternalAccountId: "buyer-guid-456", productId: "coins_100",
            purchaseTime: Date(timeIntervalSince1970: 1_750_000_000.123), acknowledgementState: 1, quantity: 1,
            priceAmountMicros: nil, priceCurrencyCode: nil))
    }

    @Test func theAccessTokenIsReusedUntilAMinuteBeforeItExpires() throws {
        let peer = try PlayAPIPeer(tokenLifetime: 90)
        let clock = TestClock()
        let api = try api(peer, clock: clock)
        _ = try api.subscription(packageName: "com.example.app", token: "sub-token-1").get()
        _ = try api.subscription(packageName: "com.example.app", token: "sub-token-expired").get()
        #expect(try tokensIssued(peer) == 1)
        clock.advance(29)
        _ = try api.product(packageName: "com.example.app", productId: "coins_100", token: "otp-token-1").get()
        #expect(try tokensIssued(peer) == 1)
        clock.advance(1.5)
        _ = try api.subscription(packageName: "com.example.app", token: "sub-token-1").get()
        #expect(try tokensIssued(peer) == 2)
    }

    @Test func aRevokedAccessTokenIsReplacedOnceAndTheCallSucceeds() throws {
        let peer = try PlayAPIPeer()
        let api = try api(peer)
        _ = try api.subscription(packageName: "com.example.app", token: "sub-token-1").get()
        try peer.revokeTokens()
        let purchase = try api.subscription(packageName: "com.example.app", token: "sub-token-expired").get()
        #expect(purchase.subscriptionState == "SUBSCRIPTION_STATE_EXPIRED")
        #expect(purchase.orderId == "GPA.1111-2222-3333-44444")
        #expect(purchase.obfuscatedExternalAccountId == nil)
        #expect(purchase.isTestPurchase == false)
        #expect(try tokensIssued(peer) == 2)
    }

    @Test func anUnknownPurchaseOrAppIsNotFound() throws {
        let peer = try PlayAPIPeer()
        let api = try api(peer)
        #expect(api.subscription(packageName: "com.example.app", token: "no-such-token") == .failure(.notFound))
        #expect(api.subscription(packageName: "com.example.other", token: "sub-token-1") == .failure(.notFound))
        #expect(api.product(packageName: "com.example.app", productId: "coins_200", token: "otp-token-1")
            == .failure(.notFound))
        #expect(API.Failure.notFound.isRetryable == false)
    }

    @Test func anAssertionSignedWithAnotherKeyIsRefusedByTheTokenEndpoint() throws {
        let peer = try PlayAPIPeer()
        let stranger = RSAPrivateKey.generate()
        let api = try api(peer, keyFile: peer.keyFile(privateKey: stranger))
        let result = api.subscription(packageName: "com.example.app", token: "sub-token-1")
        #expect(result == .failure(.tokenRefused(status: 400, error: "invalid_grant")))
        #expect(try peer.stats()["apiCalls"] as? Int == 0)
        #expect(API.Failure.tokenRefused(status: 400, error: nil).isRetryable == false)
    }

    @Test func googleBeingUnavailableIsARetryableFailure() throws {
        let peer = try PlayAPIPeer()
        let result = try api(peer).subscription(packageName: "com.example.app", token: "unavailable")
        #expect(result == .failure(.unavailable(status: 503)))
        #expect(API.Failure.unavailable(status: 503).isRetryable)
    }

    @Test func noAnswerAtAllIsARetryableTransportFailure() throws {
        let key = try API.ServiceAccountKey(json: Array(
            #"{"type":"service_account","client_email":"a@b.c","private_key":"\#(pem)","token_uri":"\#(closed)"}"#
                .utf8))
        let result = API(key: key, baseURL: closed).subscription(packageName: "com.example.app", token: "t")
        guard case .failure(let failure) = result, case .transport = failure else {
            Issue.record("expected a transport failure, got \(result)")
            return
        }
        #expect(failure.isRetryable)
    }

    private var closed: String { "http://127.0.0.1:\((try? Shell.freePort()) ?? 9)/token" }
    private var pem: String { RSAPrivateKey.generate().pkcs8PEM.replacingOccurrences(of: "\n", with: "\\n") }
}
