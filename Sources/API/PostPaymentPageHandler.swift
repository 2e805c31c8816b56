import Commands
import Domain
import Foundation
import HTTPServer

/// `GET /done/<pageToken>`: the post-payment page (`PostPaymentPageHTML`) of the payment whose handoff code the token
/// carries.
///
/// A token that does not open, or whose code is not recorded, answers one fixed HTML 404 page. A redeemed or
/// expired code still answers 200, without the code, its app link or the fingerprint script, saying so. Android
/// visitors get the Google Play button (install link with the install token) when the project has an Android
/// package; everyone else — Android visitors of a project without one included — gets the project's tracker link
/// leading to the store (`deep_link_sub4=store` for AppsFlyer), built like the payment answer's `install.trackerUrl`.
enum PostPaymentPageHandler {
    static func page(_ request: Request, _ environment: Environment, token: String) throws -> Response {
        guard let pages = environment.model.identity?.pages,
              let facts = try pages.facts(token: token, now: environment.clock()) else {
            return PostPaymentPageHTML.notFound
        }
        let platform = request.headers["User-Agent"].flatMap(DevicePlatform.init(userAgent:))
        let language = PageLanguage.choose(acceptLanguage: request.headers["Accept-Language"])
        if facts.usable && !facts.openedBefore {
            recordOpening(facts, platform: platform, language: language, environment)
        }
        let content = content(facts, token: token, platform: platform, language: language,
                              trackerURL: storeTrackerURL(facts),
                              endpoint: environment.publicBaseURL + "/public/handoff/fingerprint")
        return PostPaymentPageHTML.render(content)
    }

    /// Records the first opening of a usable page for diagnostics; a failure is logged and the page still shows
    /// (the buyer needs the code more than the timeline needs the line).
    private static func recordOpening(_ facts: PostPaymentPageFacts.Facts, platform: DevicePlatform?,
                                      language: PageLanguage, _ environment: Environment) {
        guard let record = environment.model.identity?.recordPageOpened else { return }
        do {
            try record.run(facts, platform: platform, language: language, now: environment.clock(),
                           metadata: EventMetadata(actor: .system("post-payment-page")))
        } catch {
            environment.logger.warning("post-payment page opening not recorded", [
                "payment_id": .string(facts.paymentId), "error": .string(String(describing: error)),
            ])
        }
    }

    /// The project's tracker link to the store for this payment's install token; nil without a tracker or a token.
    static func storeTrackerURL(_ facts: PostPaymentPageFacts.Facts) -> String? {
        guard let install = facts.installToken else { return nil }
        return PaymentAnswer.trackerURL(settings: facts.settings, installToken: install, projectId: facts.projectId,
                                        paywallId: facts.paywallId)(.store)
    }

    /// What the page of `facts` shows to a visitor on `platform`; `trackerURL` is the project's tracker link for
    /// this payment, when there is one.
    static func content(_ facts: PostPaymentPageFacts.Facts, token: String, platform: DevicePlatform?,
                        language: PageLanguage, trackerURL: String?, endpoint: String) -> PostPaymentPageHTML.Content {
        var returnLink: String?
        if facts.usable, let text = facts.settings.returnScheme, case .success(let scheme) = ReturnScheme.parse(text) {
            returnLink = HandoffLinks.returnLink(scheme: scheme, code: facts.code)
        }
        var store: PostPaymentPageHTML.StoreLink? = trackerURL.map(PostPaymentPageHTML.StoreLink.tracker)
        if platform == .android, let text = facts.settings.androidPackage,
           case .success(let package) = AndroidPackage.parse(text), let install = facts.installToken {
            store = .googlePlay(HandoffLinks.playStoreURL(package: package, token: install))
        }
        let sendsFingerprint = facts.usable && facts.settings.fingerprint
        return PostPaymentPageHTML.Content(
            language: language, code: facts.usable ? facts.code.text : nil, returnLink: returnLink, storeLink: store,
            fingerprint: sendsFingerprint ? .init(token: token, endpoint: endpoint) : nil)
    }
}
