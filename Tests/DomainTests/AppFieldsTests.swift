import Domain
import Foundation
import Testing

/// The field rules of apps: store token, forward URL, platform, bundle id, App Store id, secrets, service-account key.
struct AppFieldsTests {
    static func ok<T>(_ result: Result<T, FieldRefusal>) -> Bool {
        if case .success = result { true } else { false }
    }

    @Test func aStoreTokenIs32URLSafeCharactersFrom24RandomBytes() {
        let token = StoreToken(randomBytes: Array(repeating: 0xFB, count: 24))
        #expect(token.text == String(repeating: "-_v7", count: 8))
        #expect(token.text.count == 32 && StoreToken.parse(token.text) == token)
        #expect(StoreToken.parse(String(repeating: "a", count: 31)) == nil)
        #expect(StoreToken.parse(String(repeating: "a", count: 33)) == nil)
        #expect(StoreToken.parse(String(repeating: "a", count: 31) + "=") == nil)
        #expect(StoreToken.parse(String(repeating: "a", count: 31) + ".") == nil)
        #expect(StoreToken.parse(String(repeating: "A", count: 16) + String(repeating: "_-9z", count: 4)) != nil)
    }

    @Test func aForwardURLIsHttpOrHttpsWithAHostAndNoUserInfoOrFragment() {
        for url in ["https://hooks.example.com/store", "http://example.com", "HTTPS://A.B:8443/x?y=1&z=%2F",
                    "http://hooks.internal:9000/in", "https://a_b.example/"] {
            #expect(Self.ok(AppForwardURL.validate(url)), "\(url)")
        }
        for url in ["", "ftp://example.com", "https://", "https://user@example.com", "https://u:p@example.com",
                    "https://example.com/#frag", "https://exa mple.com", "https://example.com/é", "//example.com",
                    "https://example.com:65536", "https://example.com:0", "https://example.com/%zz",
                    "http://127.0.0.1:9000/in",
                    "https://[2001:db8::1]/p", "http://2130706433/", "http://0x7f.1/", "http://a.0/",
                    "https://example.com/" + String(repeating: "a", count: 2029)] {
            #expect(AppForwardURL.validate(url, field: "--forward-url") == .failure(FieldRefusal(
                field: "--forward-url", code: .forwardURLFormat,
                rule: "be an absolute http or https URL with a host name (not an IP address), without user info or "
                    + "fragment, at most 2048 characters")), "\(url)")
        }
        // 2048 characters in all (a host's labels are 1–63 characters, the host at most 253).
        #expect(Self.ok(AppForwardURL.validate("https://example.com/" + String(repeating: "a", count: 2028))))
    }

    @Test func thePlatformIsIosOrAndroid() {
        #expect(AppFields.platform("ios") == .success(.ios))
        #expect(AppFields.platform("android") == .success(.android))
        #expect(AppFields.platform("iOS", field: "--platform") == .failure(FieldRefusal(
            field: "--platform", code: .platformFormat, rule: "be ios or android")))
    }

    @Test func theBundleIdFollowsThePlatformsRule() {
        #expect(AppFields.bundleID("com.example.My-App", platform: .ios) == .success("com.example.My-App"))
        #expect(AppFields.bundleID("app", platform: .ios) == .success("app"))
        #expect(!Self.ok(AppFields.bundleID("com.example.My-App", platform: .android)))
        #expect(AppFields.bundleID("app", platform: .android) == .failure(FieldRefusal(
            field: "bundleId", code: .bundleIDFormat,
            rule: "be an Android package name: two or more '.'-separated segments, each a letter followed by "
                + "letters, digits or '_'")))
        #expect(AppFields.bundleID("com.example.app_1", platform: .android) == .success("com.example.app_1"))
        #expect(!Self.ok(AppFields.bundleID("com.example.app_1", platform: .ios)))
    }

    @Test func theAppStoreIdIsAPositive64BitInteger() {
        #expect(AppFields.appAppleID(1) == .success(1))
        #expect(AppFields.appAppleID(Int64.max) == .success(Int64.max))
        #expect(!Self.ok(AppFields.appAppleID(0)))
        #expect(!Self.ok(AppFields.appAppleID(-5)))
        #expect(AppFields.appAppleID(text: "1234567890", field: "--app-apple-id") == .success(1_234_567_890))
        for text in ["", "+1", "-1", "0", "1e3", "9223372036854775808", " 1"] {
            #expect(AppFields.appAppleID(text: text, field: "--app-apple-id") == .failure(FieldRefusal(
                field: "--app-apple-id", code: .appAppleIDFormat,
                rule: "be a positive integer (the App Store's app id)")), "\(text)")
        }
    }

    @Test func secretsArePrintableASCIIOfAtMost512() {
        #expect(AppSecretKind.revenuecatSecret.parse("Bearer abc", field: "s") == .success("Bearer abc"))
        #expect(!Self.ok(AppSecretKind.revenuecatSecret.parse(" Bearer", field: "s")))
        #expect(!Self.ok(AppSecretKind.revenuecatSecret.parse("Bearer ", field: "s")))
        #expect(!Self.ok(AppSecretKind.revenuecatSecret.parse("", field: "s")))
        #expect(!Self.ok(AppSecretKind.revenuecatSecret.parse("a\tb", field: "s")))
        #expect(Self.ok(AppSecretKind.googlePushAudience.parse(String(repeating: "a", count: 512), field: "s")))
        #expect(AppSecretKind.googlePushAudience.parse(String(repeating: "a", count: 513), field: "aud") == .failure(
            FieldRefusal(field: "aud", code: .secretFormat,
                         rule: "be 1–512 printable ASCII characters without spaces")))
        #expect(!Self.ok(AppSecretKind.googlePushAudience.parse("a b", field: "s")))
        #expect(!Self.ok(AppSecretKind.googlePushAudience.parse("é", field: "s")))
        #expect(AppSecretKind.googlePushServiceAccount.parse("push@p.iam.gserviceaccount.com", field: "s")
            == .success("push@p.iam.gserviceaccount.com"))
        #expect(!Self.ok(AppSecretKind.googlePushServiceAccount.parse("push", field: "s")))
    }

    static let pem = "-----BEGIN PRIVATE KEY-----\nMIIBVQIBADANBgkqhkiG9w0BAQEFAASCAT8wggE7AgEAAkEA\n"
        + "-----END PRIVATE KEY-----\n"

    @Test func aServiceAccountKeyIsAGoogleKeyFile() throws {
        let file = """
            {"type":"service_account","project_id":"p-1","private_key_id":"abc","private_key":\
            "\(Self.pem.replacingOccurrences(of: "\n", with: "\\n"))","client_email":"sa@p-1.iam.gserviceaccount.com",\
            "token_uri":"https://oauth2.googleapis.com/token"}
            """
        let key = try GoogleServiceAccountKey.parse(jsonText: file, field: "k").get()
        #expect(key.clientEmail == "sa@p-1.iam.gserviceaccount.com")
        #expect(key.privateKey == Self.pem)
        #expect(key.tokenURI == "https://oauth2.googleapis.com/token")
        #expect(try GoogleServiceAccountKey.parse(jsonText: key.jsonText, field: "k").get() == key)
        #expect(AppSecretKind.googleServiceAccountKey.parse(file, field: "k") == .success(key.jsonText))
    }

    @Test func aServiceAccountKeyIsRefusedNamingTheMember() {
        let base = ["type": "service_account", "private_key": Self.pem, "client_email": "sa@p.iam.gserviceaccount.com"]
        func refusal(_ values: [String: String]) -> FieldRefusal? {
            if case .failure(let refusal) = GoogleServiceAccountKey.parse(members: values, field: "key") {
                return refusal
            }
            return nil
        }
        #expect(refusal(base) == nil)
        #expect(refusal(base.merging(["type": "user"]) { $1 })?.field == "key.type")
        #expect(refusal(base.merging(["private_key": "MIIB"]) { $1 })?.field == "key.private_key")
        #expect(refusal(base.merging(["client_email": "nope"]) { $1 })?.field == "key.client_email")
        #expect(refusal(base.merging(["token_uri": "http://example.com/t"]) { $1 })?.field == "key.token_uri")
        #expect(refusal(base.merging(["token_uri": "http://127.0.0.1:9/t"]) { $1 }) == nil)
        #expect(refusal(base.merging(["client_id": "a b"]) { $1 })?.field == "key.client_id")
        #expect(refusal(base.merging(["colour": "red"]) { $1 })?.field == "key.colour")
        #expect(refusal(base.filter { $0.key != "client_email" })?.field == "key.client_email")
        #expect(refusal(base.merging(["type": "user"]) { $1 })?.code == .serviceAccountKeyFormat)
        #expect(!Self.ok(GoogleServiceAccountKey.parse(jsonText: "[1]", field: "k")))
        #expect(!Self.ok(GoogleServiceAccountKey.parse(jsonText: #"{"type":1}"#, field: "k")))
    }

    @Test func aDestinationSchemeIsX3OrAttribloom() {
        #expect(DestinationScheme.parse("x3") == .success(.x3))
        #expect(DestinationScheme.parse("attribloom") == .success(.attribloom))
        #expect(DestinationScheme.parse("X3") == .failure(FieldRefusal(
            field: "scheme", code: .destinationSchemeFormat, rule: "be x3 or attribloom")))
    }

    @Test func aDraftIsCheckedFieldByFieldNamingTheFlag() throws {
        let draft = AppDraft.parse(platform: "ios", bundleId: "com.example.App", appAppleId: 42,
                                   forwardUrl: "https://example.com/in", secrets: [.revenuecatSecret: "Bearer x"],
                                   fields: .flags)
        #expect(try draft.get().secrets == [.revenuecatSecret: "Bearer x"])
        #expect(try draft.get().forwardUrl?.text == "https://example.com/in")
        if case .failure(let refusal) = AppDraft.parse(platform: "android", bundleId: "com.example.App",
                                                        appAppleId: nil, forwardUrl: nil,
                                                        secrets: [.googlePushAudience: "a b"], fields: .flags) {
            #expect(refusal.field == "--google-push-audience")
        } else {
            Issue.record("a bad secret was taken")
        }
        if case .failure(let refusal) = AppDraft.parse(platform: "ios", bundleId: "a..b", appAppleId: nil,
                                                        forwardUrl: nil, secrets: [:], fields: .flags) {
            #expect(refusal.field == "--bundle-id" && refusal.code == .bundleIDFormat)
        } else {
            Issue.record("a bad bundle id was taken")
        }
    }
}
