import Domain
import Foundation

/// A `POST /v1/m/install` body read member by member (refusals are 400 `invalid` naming the part): `v`, `k`,
/// `app{plat,bid,…}`, `inst`, `at`, `cm`, `cs`, `first`, and the sources `play{ref,clk,ins,ver}`, `asa{token}`,
/// `link`. Times are Unix milliseconds of the device clock (`play.clk`/`play.ins`, Play's seconds, are checked and
/// not used).
struct AppInstallBody {
    /// The Google Play install referrer as the SDK read it.
    struct Play {
        /// The raw referrer (`utm_source=…&x3c=…`).
        var referrer: String
        var clickSeconds: Int?
        var installBeginSeconds: Int?
        var version: String?
    }

    var key: String
    var platform: String?
    var bundleId: String?
    var install: String
    var sentAt: Int
    var consentMode: String?
    var consentStates: String?
    /// The first open in device milliseconds, when `first` is a number (a boolean `first` says nothing about time).
    var firstOpenAt: Int?
    var play: Play?
    var appleAdsToken: String?
    /// `link` as sent: a URL, or an object as compact JSON.
    var link: String?

    /// Longest raw Play referrer.
    static let maxReferrerLength = 4096
    /// Longest Apple Ads (AdServices) token.
    static let maxAppleAdsTokenLength = 4096
    /// Longest `link` as a URL.
    static let maxLinkLength = 2048
    /// Longest `link` as an object (its compact JSON).
    static let maxLinkObjectLength = 4096

    static func parse(_ bytes: [UInt8]) throws -> AppInstallBody {
        guard let object = IngestJSON.object(bytes) else { throw IngestRefusal.invalid("body is not a JSON object") }
        let top = AppBatchBody.Members(object, path: "")
        guard try top.int("v") == 1 else { throw IngestRefusal.invalid("v must be 1") }
        let app = try top.object("app")
        var firstOpenAt: Int?
        switch object["first"] {
        case nil, .null, .bool: break
        case .number: firstOpenAt = try top.optionalInt("first")
        default: throw IngestRefusal.invalid("first must be a boolean or Unix milliseconds")
        }
        var play: Play?
        if let value = object["play"], !value.isNull {
            let members = try AppBatchBody.Members.element(value, path: "play")
            play = Play(referrer: try members.string("ref", max: maxReferrerLength),
                        clickSeconds: try members.optionalInt("clk"),
                        installBeginSeconds: try members.optionalInt("ins"),
                        version: try members.optionalString("ver", max: 64))
        }
        var appleAdsToken: String?
        if let value = object["asa"], !value.isNull {
            appleAdsToken = try AppBatchBody.Members.element(value, path: "asa")
                .string("token", max: maxAppleAdsTokenLength)
        }
        return AppInstallBody(
            key: try top.string("k", max: PublishableKey.length),
            platform: try app.optionalString("plat", max: 16), bundleId: try app.optionalString("bid", max: 255),
            install: try top.string("inst", max: AppBatchBody.maxIdLength), sentAt: try top.int("at"),
            consentMode: try top.optionalString("cm", max: 16), consentStates: try top.optionalString("cs", max: 16),
            firstOpenAt: firstOpenAt, play: play, appleAdsToken: appleAdsToken, link: try link(object["link"]))
    }

    private static func link(_ value: IngestJSON.Value?) throws -> String? {
        switch value {
        case nil, .null: return nil
        case .string(let text):
            guard !text.isEmpty, text.utf8.count <= maxLinkLength,
                  !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
            else { throw IngestRefusal.invalid("link must be 1 to \(maxLinkLength) bytes of text or an object") }
            return text
        case .object(let members):
            let data = members.sortedCompactBytes
            guard data.count <= maxLinkObjectLength, !String(decoding: data, as: UTF8.self).contains("\\u0000")
            else { throw IngestRefusal.invalid("link must be an object of at most \(maxLinkObjectLength) bytes") }
            return String(decoding: data, as: UTF8.self)
        default:
            throw IngestRefusal.invalid("link must be text or an object")
        }
    }
}
