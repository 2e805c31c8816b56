import Domain
import Foundation

/// `tracker-link`: the bytes as a project's `trackerLink` (`TrackerLink.parse` for AppsFlyer and Adjust), and the
/// deep links built from an accepted one (`TrackerLink.url`).
///
/// Properties: no link is accepted for tracker `none`; an accepted link is a valid paywall-style URL kept as given;
/// a built link keeps the configured link's part before `?` and its `#fragment`, is printable ASCII, carries each
/// parameter Handoff owns exactly once (`deep_link_sub2` only with a paywall id), and — when short enough to be
/// configured — is itself an accepted link of the same tracker that builds to itself again (building is idempotent).
enum TrackerLinkFuzz {
    static let target = FuzzTarget(name: "tracker-link", maxLength: 2048, run: run)

    static let token = InstallToken(randomBytes: [1, 2, 3, 4, 5])
    static let project = ProjectID(randomBytes: [UInt8](repeating: 7, count: 16))
    static let scheme: ReturnScheme = {
        guard case .success(let scheme) = ReturnScheme.parse("myapp") else { fatalError("myapp is a return scheme") }
        return scheme
    }()

    static func run(_ bytes: [UInt8]) {
        let candidate = text(bytes)
        check((try? TrackerLink.parse(candidate, tracker: .none).get()) == nil, "a link accepted for tracker none")
        for tracker in [ProjectSettings.Tracker.appsflyer, .adjust] {
            guard case .success(let link) = TrackerLink.parse(candidate, tracker: tracker) else { continue }
            check(link.text == candidate, "'\(candidate)' kept as '\(link.text)'")
            check((try? PaywallURL.parse(candidate).get()) != nil, "accepted link '\(candidate)' is no paywall URL")
            for paywallId in [nil, "pw:1 &=%"] {
                for returnScheme in [nil, scheme] {
                    for destination in TrackerLink.Destination.allCases {
                        checkBuilt(link, paywallId: paywallId, returnScheme: returnScheme, destination: destination)
                    }
                }
            }
        }
    }

    private static func checkBuilt(_ link: TrackerLink, paywallId: String?, returnScheme: ReturnScheme?,
                                   destination: TrackerLink.Destination) {
        let built = link.url(token: token, paywallId: paywallId, projectId: project, returnScheme: returnScheme,
                             destination: destination)
        let fragment = link.text.firstIndex(of: "#").map { String(link.text[$0...]) } ?? ""
        let base = String(link.text.prefix { $0 != "?" && $0 != "#" })
        check(built.hasPrefix(base + "?") && built.hasSuffix(fragment), "'\(link.text)' built '\(built)'")
        check(built.utf8.allSatisfy { (0x21...0x7E).contains($0) }, "'\(built)' is not printable ASCII")
        let query = built.dropFirst(base.count + 1).dropLast(fragment.count)
        let names = query.split(separator: "&").map { pair in
            let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            return String(name).removingPercentEncoding ?? String(name)
        }
        for owned in TrackerLink.ownedParameters(link.tracker) {
            let expected = owned == "deep_link_sub2" && paywallId == nil ? 0 : 1
            check(names.filter { $0 == owned }.count == expected, "'\(built)' has \(owned) other than \(expected)×")
        }
        guard built.utf8.count <= PaywallURL.maxLength else { return }
        guard case .success(let again) = TrackerLink.parse(built, tracker: link.tracker) else {
            check(false, "built link '\(built)' from '\(link.text)' is refused as a \(link.tracker) link")
            return
        }
        let rebuilt = again.url(token: token, paywallId: paywallId, projectId: project, returnScheme: returnScheme,
                                destination: destination)
        check(rebuilt == built, "building is not idempotent: '\(built)' → '\(rebuilt)'")
    }
}
