import Domain
import Foundation

/// A device erasure (`POST /v1/m/erase`) read member by member, so each refusal is a 400 `invalid` whose detail
/// names the failing part, never a value: `v` (1), `k`, `app{plat,bid}`, `inst` and `secret` (64 hex digits), all
/// required.
struct AppEraseBody {
    var key: String
    var platform: String?
    var bundleId: String?
    var install: String
    /// The install's erase secret as sent; its SHA-256 is the `dp` its batches carried.
    var secret: String

    /// Length of `secret`: 32 random bytes in hex.
    static let secretLength = 64

    static func parse(_ bytes: [UInt8]) throws -> AppEraseBody {
        guard let object = IngestJSON.object(bytes) else { throw IngestRefusal.invalid("body is not a JSON object") }
        let top = AppBatchBody.Members(object, path: "")
        guard try top.int("v") == 1 else { throw IngestRefusal.invalid("v must be 1") }
        let app = try top.object("app")
        let secret = try top.string("secret", max: secretLength)
        guard secret.utf8.count == secretLength, secret.utf8.allSatisfy(isHexDigit) else {
            throw IngestRefusal.invalid("secret must be 64 hex digits")
        }
        return AppEraseBody(
            key: try top.string("k", max: PublishableKey.length),
            platform: try app.optionalString("plat", max: 16), bundleId: try app.optionalString("bid", max: 255),
            install: try top.string("inst", max: AppBatchBody.maxIdLength), secret: secret)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) || (0x41...0x46).contains(byte)
    }
}
