@testable import Domain
import Foundation

/// `project-settings`: the bytes as the text settings of `PATCH /s2s/v1/project` and `handoff admin project`
/// (`ReturnScheme`, `PaywallURL`, `AndroidPackage`, `IOSBundleID`, `tracker`, `emailVerification`).
///
/// Properties: an accepted return scheme is the lowercase of the text, not a browser or system scheme, and parses
/// to itself; an accepted paywall URL is kept exactly, printable ASCII, `https` (or `http` on a loopback host), and
/// stays one when Handoff adds `pass`/`email`/`origin` (fragment kept last); package names and bundle ids are kept
/// as given and their `.`-separated segments are non-empty; the tracker and e-mail verification names are exactly
/// their enumerations.
enum ProjectSettingsFuzz {
    static let target = FuzzTarget(name: "project-settings", maxLength: 2304, run: run)

    static func run(_ bytes: [UInt8]) {
        let candidate = text(bytes)
        if case .success(let scheme) = ReturnScheme.parse(candidate) {
            check(scheme.text == candidate.lowercased() && !ReturnScheme.refusedSchemes.contains(scheme.text),
                  "return scheme '\(candidate)' kept as '\(scheme.text)'")
            check((try? ReturnScheme.parse(scheme.text).get()) == scheme, "scheme '\(scheme)' does not parse back")
        }
        if case .success(let url) = PaywallURL.parse(candidate) { checkPaywallURL(url, candidate) }
        if case .success(let package) = AndroidPackage.parse(candidate) {
            check(package.text == candidate && candidate.split(separator: ".", omittingEmptySubsequences: false)
                .count >= 2, "package '\(candidate)' kept as '\(package)'")
        }
        if case .success(let bundle) = IOSBundleID.parse(candidate) {
            check(bundle.text == candidate && !candidate.split(separator: ".", omittingEmptySubsequences: false)
                .contains { $0.isEmpty }, "bundle id '\(candidate)' kept as '\(bundle)'")
        }
        let tracker = try? ProjectSettings.parseTracker(candidate).get()
        check(tracker?.rawValue == (ProjectSettings.Tracker(rawValue: candidate)?.rawValue), "tracker '\(candidate)'")
        let verification = try? EmailVerification.parse(candidate).get()
        check(verification == EmailVerification(rawValue: candidate), "emailVerification '\(candidate)'")
    }

    private static func checkPaywallURL(_ url: PaywallURL, _ candidate: String) {
        check(url.text == candidate && candidate.utf8.allSatisfy { (0x21...0x7E).contains($0) },
              "paywall URL '\(candidate)' kept as '\(url.text)'")
        let lowercased = candidate.lowercased()
        let host = URLComponents(string: candidate)?.host?.lowercased() ?? ""
        check(lowercased.hasPrefix("https://")
                  || lowercased.hasPrefix("http://") && PaywallURL.loopbackHosts.contains(host),
              "paywall URL '\(candidate)' is neither https nor loopback http")
        let link = HandoffLinks.paywallURL(base: url, pass: "v1.pass", email: "a+b@example.com")
        let fragment = candidate.firstIndex(of: "#").map { String(candidate[$0...]) } ?? ""
        check(link.hasSuffix(fragment) && link.contains("pass=v1.pass&email=a%2Bb%40example.com&origin=app"),
              "'\(candidate)' gave the paywall link '\(link)'")
        if link.utf8.count <= PaywallURL.maxLength {
            check((try? PaywallURL.parse(link).get()) != nil, "the paywall link '\(link)' is no paywall URL")
        }
    }
}
