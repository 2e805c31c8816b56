import Domain
import Testing

struct ProjectSettingsTests {
    static let schemeRule = "be a URL scheme without '://': a letter, then letters, digits, '+', '-' or '.' "
        + "(at most 64)"
    static let packageRule = "be an Android package name: two or more '.'-separated segments, each a letter "
        + "followed by letters, digits or '_'"
    static let bundleRule = "be an iOS bundle id: '.'-separated segments of letters, digits or '-'"
    static let paywallRule = "be an absolute https URL (http only for localhost) without user info, "
        + "at most 2048 characters"

    @Test(arguments: ["myapp", "my-app.v2+beta", "x", "MyApp", "fb123456789"])
    func returnSchemesOfRFC3986AreTakenInLowercase(text: String) throws {
        #expect(try ReturnScheme.parse(text).get().text == text.lowercased())
    }

    @Test(arguments: ["", "1app", "my app", "myapp://", "my_app", "-app", "схема",
                      String(repeating: "a", count: 65)])
    func malformedReturnSchemesAreRefusedNamingTheField(text: String) {
        #expect(ReturnScheme.parse(text) == .failure(FieldRefusal(
            field: "returnScheme", code: .returnSchemeFormat, rule: Self.schemeRule)))
    }

    @Test(arguments: ["https", "HTTP", "javascript", "data", "file", "intent"])
    func schemesThatAreNotAnAppsOwnAreRefused(text: String) {
        #expect(ReturnScheme.parse(text, field: "--return-scheme") == .failure(FieldRefusal(
            field: "--return-scheme", code: .returnSchemeFormat,
            rule: "be the app's own scheme, not '\(text.lowercased())'")))
    }

    @Test(arguments: ["com.example.app", "com.Example.App_2", "a.b", "io.x1.y_z"])
    func androidPackageNamesAreKeptAsGiven(text: String) throws {
        #expect(try AndroidPackage.parse(text).get().text == text)
    }

    @Test(arguments: ["", "app", "com..app", ".com.app", "com.app.", "com.1app", "com._app", "com.my-app",
                      "com.app$", "com.app ", String(repeating: "a.", count: 128) + "a"])
    func malformedAndroidPackageNamesAreRefusedNamingTheField(text: String) {
        #expect(AndroidPackage.parse(text) == .failure(FieldRefusal(
            field: "androidPackage", code: .androidPackageFormat, rule: Self.packageRule)))
    }

    @Test(arguments: ["com.example.App", "com.example.my-app", "App", "com.1password.ios"])
    func iOSBundleIDsAreKeptAsGiven(text: String) throws {
        #expect(try IOSBundleID.parse(text).get().text == text)
    }

    @Test(arguments: ["", "com..app", ".com.app", "com.app.", "com.my_app", "com.app!", "com.app ", "com/app",
                      String(repeating: "a", count: 256)])
    func malformedIOSBundleIDsAreRefusedWithTheBundleIDCode(text: String) {
        #expect(IOSBundleID.parse(text) == .failure(FieldRefusal(
            field: "iosBundleId", code: .bundleIDFormat, rule: Self.bundleRule)))
    }

    @Test(arguments: ["https://pay.example.com/paywall", "https://pay.example.com/p?plan=pro#top", "HTTPS://x.io",
                      "http://localhost:8080/p", "http://127.0.0.1/p", "http://[::1]:3000/",
                      "https://xn--e1afmkfd.xn--p1ai/"])
    func httpsPaywallURLsAndLocalHTTPOnesAreKeptAsGiven(text: String) throws {
        #expect(try PaywallURL.parse(text).get().text == text)
    }

    @Test(arguments: ["", "pay.example.com", "http://pay.example.com/", "ftp://pay.example.com/", "https://",
                      "https:///path", "https://user:pw@pay.example.com/", "https://user@pay.example.com/",
                      "https://pay.example.com/a b", "https://пример.рф/", "javascript:alert(1)",
                      "https:pay.example.com", "https://pay.example.com/" + String(repeating: "a", count: 2030),
                      "http://localhost.evil.com/"])
    func otherPaywallURLsAreRefusedNamingTheField(text: String) {
        #expect(PaywallURL.parse(text) == .failure(FieldRefusal(
            field: "paywallUrl", code: .paywallURLFormat, rule: Self.paywallRule)))
    }
}
