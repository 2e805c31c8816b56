import API
import Commands
import Foundation
import HTTPServer
import Testing
import TestSupport

/// `POST /v1/m/store/google/{token}` end to end (issue 14): Pub/Sub pushes checked by their OIDC token when the app
/// names a push service account, recorded once by `messageId`, 204.
@Suite struct GoogleIntakeTests {
    static let issuer = GoogleTokenIssuer()
    static let account = GoogleTokenIssuer.account

    /// A Pub/Sub push of a `DeveloperNotification` JSON for `package`.
    static func push(_ notification: String, package: String = "com.example.play",
                     messageId: String = String(UInt64.random(in: 1...UInt64.max))) -> String {
        let inner = #"{"version":"1.0","packageName":"\#(package)","eventTimeMillis":"1750000000000",\#(notification)}"#
        let data = Data(inner.utf8).base64EncodedString()
        return #"{"message":{"data":"\#(data)","messageId":"\#(messageId)","publishTime":"2025-06-15T15:06:40Z"},"# +
            #""subscription":"projects/p-1/subscriptions/handoff"}"#
    }

    static let test = #""testNotification":{"version":"1.0"}"#
    static func voided(_ orderId: String) -> String {
        #""voidedPurchaseNotification":{"purchaseToken":"tok-1","orderId":"\#(orderId)","productType":1,"# +
            #""refundType":1}"#
    }

    static func fixture() throws -> StoreFixture {
        try StoreFixture.migrated(googleKeys: try GoogleOIDCKeys(
            source: .inline(json: GoogleTokenIssuer.jwks([issuer])), now: GoogleTokenIssuer.now),
            clock: { GoogleTokenIssuer.now })
    }

    func app(_ fixture: StoreFixture, audience: String? = "aud-handoff") throws -> String {
        let audienceField = audience.map { #","googlePushAudience":"\#($0)""# } ?? ""
        return try fixture.app(#"{"platform":"android","bundleId":"com.example.play","# +
            #""googlePushServiceAccount":"\#(Self.account)"\#(audienceField)}"#).token
    }

    static func bearer(_ claims: String) -> [(String, String)] {
        [("authorization", "Bearer " + issuer.token(claims: claims))]
    }

    @Test func aVerifiedPushIsRecordedOnceAnd204() throws {
        let fixture = try Self.fixture()
        let token = try app(fixture)
        let body = Self.push(Self.test, messageId: "m-1")
        let auth = Self.bearer(GoogleTokenIssuer.claims(audience: "aud-handoff"))
        let first = fixture.post("google", token: token, body: body, headers: auth)
        #expect(first.status == 204 && first.body.isEmpty)
        #expect(fixture.post("google", token: token, body: body, headers: auth).status == 204)
        let received = try fixture.events("StoreNotificationReceived")
        #expect(received.count == 1)
        #expect(received.first?.data.contains(#""verified": true"#) == true)
        #expect(received.first?.data.contains(#""notificationType": "testNotification""#) == true)
    }

    @Test func withoutAnAudienceTheStoreURLIsTheAudience() throws {
        let fixture = try Self.fixture()
        let token = try app(fixture, audience: nil)
        let url = "https://handoff.example.com/v1/m/store/google/\(token)"
        #expect(fixture.post("google", token: token, body: Self.push(Self.test),
                             headers: Self.bearer(GoogleTokenIssuer.claims(audience: url))).status == 204)
        #expect(fixture.post("google", token: token, body: Self.push(Self.test),
                             headers: Self.bearer(GoogleTokenIssuer.claims(audience: "aud-handoff"))).status == 401)
    }

    @Test func badTokensAreRefusedAndRecordNothing() throws {
        let fixture = try Self.fixture()
        let token = try app(fixture)
        let body = Self.push(Self.test)
        let stranger = GoogleTokenIssuer(keyID: "google-key-1")
        let bad: [[(String, String)]] = [
            [],
            [("authorization", "Basic abc")],
            Self.bearer(GoogleTokenIssuer.claims(audience: "other")),
            Self.bearer(GoogleTokenIssuer.claims(issuer: "https://evil.example")),
            Self.bearer(GoogleTokenIssuer.claims(email: "someone@p-1.iam.gserviceaccount.com")),
            Self.bearer(GoogleTokenIssuer.claims(verified: "false")),
            Self.bearer(GoogleTokenIssuer.claims(issuedAt: GoogleTokenIssuer.now - 7200, lifetime: 3600)),
            [("authorization", "Bearer " + stranger.token(claims: GoogleTokenIssuer.claims(audience: "aud-handoff")))],
        ]
        for headers in bad {
            #expect(fixture.post("google", token: token, body: body, headers: headers).status == 401)
        }
        let good = Self.bearer(GoogleTokenIssuer.claims(audience: "aud-handoff"))
        #expect(fixture.post("google", token: token, body: Self.push(Self.test, package: "com.other"),
                             headers: good).status == 401)
        for malformed in ["{}", #"{"message":{}}"#, #"{"message":{"data":"!!","messageId":"1"}}"#] {
            #expect(fixture.post("google", token: token, body: malformed, headers: good).status == 400)
        }
        #expect(try fixture.events("StoreNotificationReceived").isEmpty)
    }

    @Test func withoutAServiceAccountAPushIsStoredButNeverApplied() throws {
        let fixture = try Self.fixture()
        let token = try fixture.app(#"{"platform":"android","bundleId":"com.example.play"}"#).token
        // A payment the org recorded over S2S under the order id a voided purchase names.
        let guid = fixture.buyer()
        let payment = #"{"guid":"\#(guid)","paymentId":"GPA.1111-2222-3333-44444","amount":499,"currency":"EUR","# +
            #""productId":"pro","entitlement":"pro","expiresAt":null}"#
        #expect(fixture.apps.send(.post, "/s2s/v1/payments", key: fixture.tenant.key, body: payment).status == 200)
        let voided = Self.push(Self.voided("GPA.1111-2222-3333-44444..0"))
        #expect(fixture.post("google", token: token, body: voided).status == 204)
        let received = try fixture.events("StoreNotificationReceived")
        #expect(received.count == 1 && received[0].data.contains(#""verified": false"#))
        #expect(fixture.entitlements(guid).first?["status"] as? String == "active")
    }

    @Test func aVerifiedVoidedPurchaseRefundsItsOrder() throws {
        let fixture = try Self.fixture()
        let token = try app(fixture)
        let guid = fixture.buyer()
        let payment = #"{"guid":"\#(guid)","paymentId":"GPA.5555-2222-3333-44444","amount":499,"currency":"EUR","# +
            #""productId":"pro","entitlement":"pro","expiresAt":null}"#
        #expect(fixture.apps.send(.post, "/s2s/v1/payments", key: fixture.tenant.key, body: payment).status == 200)
        #expect(fixture.post("google", token: token, body: Self.push(Self.voided("GPA.5555-2222-3333-44444..2")),
                             headers: Self.bearer(GoogleTokenIssuer.claims(audience: "aud-handoff"))).status == 204)
        #expect(fixture.entitlements(guid).first?["status"] as? String == "refunded")
    }
}
