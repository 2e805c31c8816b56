@testable import API
import Domain
import Foundation

/// What every decoded app body must satisfy (issue 14): each value it carries passes its own parser again, unchanged,
/// and the rules that tie fields together hold (a bundle id of its platform, a secret for attribloom).
extension JSONBodyFuzz {
    static func checkValid(_ body: AppBody.Create) {
        let draft = body.draft
        check((try? AppFields.bundleID(draft.bundleId, platform: draft.platform).get()) == draft.bundleId,
              "app bundle id '\(draft.bundleId)' is not one of a \(draft.platform) app")
        if let id = draft.appAppleId { check(id > 0, "appAppleId \(id) taken") }
        if let url = draft.forwardUrl {
            check((try? AppForwardURL.validate(url.text).get()) == url, "forward URL '\(url)' does not validate")
        }
        for (kind, text) in draft.secrets { checkSecret(kind, text) }
    }

    static func checkValid(_ body: AppBody.Patch) {
        let change = body.change
        if case .set(let id) = change.appAppleId { check(id > 0, "appAppleId \(id) taken") }
        if case .set(let url) = change.forwardUrl {
            check((try? AppForwardURL.validate(url.text).get()) == url, "forward URL '\(url)' does not validate")
        }
        for (kind, secret) in change.secrets {
            if case .set(let text) = secret { checkSecret(kind, text) }
        }
        // The bundle id's rule depends on the app's platform: the decider judges it, for an app of each platform.
        guard let bundleId = change.bundleId else { return }
        let sealed = change.secrets.mapValues { _ in SealedValue(box: Array(repeating: 7, count: 40)) }
        for platform in DevicePlatform.allCases {
            let facts = AppFacts(appId: AppID(randomBytes: Array(repeating: 1, count: 16)),
                                 projectId: ProjectID(randomBytes: Array(repeating: 2, count: 16)),
                                 platform: platform, bundleId: "a.b", appAppleId: nil, secrets: [:])
            let state = AppState(facts: facts, storeTokenHash: String(repeating: "0", count: 64), destinations: [])
            let fresh = DestinationID(randomBytes: Array(repeating: 3, count: 16))
            let valid = (try? AppFields.bundleID(bundleId, platform: platform).get()) == bundleId
            switch AppUpdate.decide(current: state, change: change, sealed: sealed, newDestination: fresh) {
            case .success(let decision):
                check(valid && decision.facts.bundleId == bundleId, "bundle id '\(bundleId)' taken for \(platform)")
            case .failure:
                check(!valid, "bundle id '\(bundleId)' refused for \(platform)")
            }
        }
    }

    static func checkValid(_ body: DestinationBody) {
        check((try? AppForwardURL.validate(body.url.text).get()) == body.url, "destination URL '\(body.url)'")
        check(!body.scheme.requiresSecret || body.secret != nil, "\(body.scheme) destination without a secret")
        if let secret = body.secret {
            check((try? SecretText.token.parse(secret, field: "secret").get()) == secret, "secret taken unchecked")
        }
    }

    static func checkRoundTrip(_ body: AppAccountTokenHandler.Body) {
        let object = ["projectId": body.projectId.description, "guid": body.guid.description]
        let again: AppAccountTokenHandler.Body? = reencode(object)
        check(again?.projectId == body.projectId && again?.guid == body.guid,
              "app-account-token body round trip: \(object) decodes differently")
    }

    /// A checked secret parses to itself (a service-account key's JSON text to the same text).
    private static func checkSecret(_ kind: AppSecretKind, _ text: String) {
        check((try? kind.parse(text, field: kind.rawValue).get()) == text, "\(kind) taken as a value it refuses")
    }
}
