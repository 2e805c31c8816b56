@testable import API
import Commands
import Domain
import Foundation

/// What every decoded body must satisfy: its values pass their validators again, and printing the value as the
/// JSON a client would send decodes to the same value.
extension JSONBodyFuzz {
    static func checkRoundTrip(_ request: PaymentRequest) {
        let payment = request.payment
        guard let json = try? JSONEncoder().encode(payment) else {
            check(false, "a decoded payment does not encode")
            return
        }
        let again = try? JSONBody.decode(PaymentRequest.self, from: Array(json))
        check(again?.payment == payment,
              "payment → \(text(Array(json))) → \(String(describing: again?.payment)), not \(payment)")
    }

    static func checkRoundTrip(_ request: UserRequest) {
        check(request.externalId != nil || request.email != nil, "a user body without externalId and email decoded")
        var object: [String: Any] = [:]
        object["externalId"] = request.externalId?.text
        object["email"] = request.email?.text
        let again: UserRequest? = reencode(object)
        check(again?.externalId == request.externalId && again?.email == request.email,
              "user body round trip: \(object) decodes differently")
    }

    static func checkRoundTrip(_ request: FingerprintCaptureRequest) {
        var object: [String: Any] = ["token": request.token, "screen": request.capture.screen.text]
        object["timezone"] = request.capture.timezone
        object["language"] = request.capture.language
        let again: FingerprintCaptureRequest? = reencode(object)
        check(again?.token == request.token && again?.capture == request.capture,
              "fingerprint body round trip: \(object) decodes differently")
    }

    static func checkRoundTrip(_ request: ResolveByFingerprintRequest) {
        var object: [String: Any] = [
            "projectId": request.projectId, "platform": request.question.platform.rawValue, "osVersion": "17.4.1",
            "screen": request.question.screen.text,
        ]
        object["timezone"] = request.question.timezone
        object["language"] = request.question.language
        object["bundleId"] = request.bundleId
        let again: ResolveByFingerprintRequest? = reencode(object)
        check(again?.projectId == request.projectId && again?.question == request.question
                  && again?.bundleId == request.bundleId,
              "resolve-by-fingerprint body round trip: \(object) decodes differently")
    }

    static func checkRoundTrip(_ request: API.EmailRecoveryRequest) {
        let object = ["projectId": request.projectId.description, "email": request.email.text]
        let again: API.EmailRecoveryRequest? = reencode(object)
        check(again?.projectId == request.projectId && again?.email == request.email,
              "recovery body round trip: \(object) decodes differently")
    }

    /// A decoded settings patch applied to a project keeps the settings invariant: every value set passes its
    /// parser and is stored as the parser prints it, and a tracker other than `none` has a link valid for it.
    static func checkApplied(_ patch: ProjectSettingsPatch) {
        let base = ProjectSettings(name: "Fuzz", fingerprint: true)
        guard case .success(let settings) = base.applying(patch.change) else { return }
        let stored: [(String?, (String) -> String?)] = [
            (settings.paywallUrl, { try? PaywallURL.parse($0).get().text }),
            (settings.returnScheme, { try? ReturnScheme.parse($0).get().text }),
            (settings.androidPackage, { try? AndroidPackage.parse($0).get().text }),
            (settings.iosBundleId, { try? IOSBundleID.parse($0).get().text }),
            (settings.landingUrl, { try? PaywallURL.parse($0).get().text }),
        ]
        for (value, parse) in stored {
            if let value { check(parse(value) == value, "stored setting '\(value)' does not parse to itself") }
        }
        if settings.tracker == .none {
            check(settings.trackerLink == nil, "tracker none with link \(settings.trackerLink ?? "")")
        } else {
            let link = settings.trackerLink ?? ""
            check((try? TrackerLink.parse(link, tracker: settings.tracker).get()) != nil,
                  "tracker \(settings.tracker) stored with link '\(link)' that does not parse for it")
        }
        let encoded = try? JSONEncoder().encode(settings)
        let decoded = encoded.flatMap { try? JSONDecoder().decode(ProjectSettings.self, from: $0) }
        check(decoded == settings, "settings \(settings) do not survive their own JSON")
    }

    /// `object` as JSON, decoded again through `JSONBody` as `T`; nil when it is refused.
    static func reencode<T: Decodable>(_ object: Any) -> T? {
        guard let data = try? JSONSerialization.data(withJSONObject: object) else {
            check(false, "\(object) is not JSON")
            return nil
        }
        return try? JSONBody.decode(T.self, from: Array(data))
    }
}
