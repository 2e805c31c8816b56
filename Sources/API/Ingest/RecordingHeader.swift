import Domain
import Foundation

/// The JSON header of a recording packet (`POST /v1/m/r`, docs/recordings.md "Header"), read member by member so a
/// refusal is a 400 `invalid` naming the member. Times are Unix milliseconds of the device clock.
struct RecordingHeader {
    var key: String
    var platform: String?
    var bundleId: String?
    var install: String
    var session: String
    var secret: String
    var seq: Int
    var sentAt: Int
    var screen: String?
    var consentMode: String?
    var consentStates: String?

    static func parse(_ bytes: [UInt8]) throws -> RecordingHeader {
        guard let object = IngestJSON.object(bytes) else { throw IngestRefusal.invalid("header is not a JSON object") }
        let top = AppBatchBody.Members(object, path: "")
        guard try top.int("v") == 1 else { throw IngestRefusal.invalid("v must be 1") }
        let secret = try top.string("sec", max: 128)
        guard secret.utf8.count >= 16 else { throw IngestRefusal.invalid("sec must be 16 to 128 bytes of text") }
        let seq = try top.int("seq")
        guard seq <= Int(Int32.max) else { throw IngestRefusal.invalid("seq must be at most 2147483647") }
        return RecordingHeader(
            key: try top.string("k", max: PublishableKey.length), platform: try top.optionalString("plat", max: 16),
            bundleId: try top.optionalString("bid", max: 255),
            install: try top.string("ins", max: AppBatchBody.maxIdLength),
            session: try top.string("sid", max: AppBatchBody.maxIdLength), secret: secret, seq: seq,
            sentAt: try top.int("at"), screen: try top.optionalString("scr", max: 256),
            consentMode: try top.optionalString("cm", max: 16), consentStates: try top.optionalString("cs", max: 16))
    }
}
