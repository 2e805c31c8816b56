import Domain
import Foundation

/// A lead form (`POST /v1/m/lead`) read member by member, so each refusal is a 400 `invalid` whose detail names the
/// failing part, never a value: `v` (1), `k`, `app{plat,bid}`, `inst`, `form`, `email` required; `sid`, `firstName`,
/// `message`, `consent{marketing}`, `fillMs`, `eventId` optional.
struct AppLeadBody {
    var key: String
    var platform: String?
    var bundleId: String?
    var install: String
    var session: String?
    var form: String
    var email: EmailAddress
    var firstName: String?
    var message: String?
    var marketingConsent: Bool
    var fillMs: Int?
    var eventId: String?

    /// Longest `form` name.
    static let maxFormLength = 64
    /// Longest `firstName`, in bytes.
    static let maxFirstNameLength = 100
    /// Longest `message`, in bytes (line breaks and tabs allowed).
    static let maxMessageLength = 2000

    static func parse(_ bytes: [UInt8]) throws -> AppLeadBody {
        guard let object = IngestJSON.object(bytes) else { throw IngestRefusal.invalid("body is not a JSON object") }
        let top = AppBatchBody.Members(object, path: "")
        guard try top.int("v") == 1 else { throw IngestRefusal.invalid("v must be 1") }
        let app = try top.object("app")
        let emailText = try top.string("email", max: EmailAddress.maxLength)
        guard case .success(let email) = EmailAddress.parse(emailText) else {
            throw IngestRefusal.invalid("email must be an e-mail address")
        }
        let marketing = try top.optionalObject("consent")?.optionalBool("marketing") ?? false
        return AppLeadBody(
            key: try top.string("k", max: PublishableKey.length),
            platform: try app.optionalString("plat", max: 16), bundleId: try app.optionalString("bid", max: 255),
            install: try top.string("inst", max: AppBatchBody.maxIdLength),
            session: try top.optionalString("sid", max: AppBatchBody.maxIdLength),
            form: try top.string("form", max: maxFormLength), email: email,
            firstName: try top.optionalString("firstName", max: maxFirstNameLength),
            message: try message(object["message"]), marketingConsent: marketing,
            fillMs: try top.optionalInt("fillMs"),
            eventId: try top.optionalString("eventId", max: AppBatchBody.maxIdLength))
    }

    /// `message`: 1 to `maxMessageLength` bytes of text; line breaks and tabs are the only control characters taken.
    private static func message(_ value: IngestJSON.Value?) throws -> String? {
        guard let value, !value.isNull else { return nil }
        guard case .string(let text) = value, !text.isEmpty, text.utf8.count <= maxMessageLength,
              !text.unicodeScalars.contains(where: {
                  ($0.value < 0x20 && !["\n", "\r", "\t"].contains($0)) || $0.value == 0x7F
              })
        else { throw IngestRefusal.invalid("message must be 1 to \(maxMessageLength) bytes of text") }
        return text
    }
}
