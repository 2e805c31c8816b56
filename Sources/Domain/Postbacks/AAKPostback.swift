import Foundation

/// An AdAttributionKit postback: `{"jws-string":…, "conversion-value"?, "coarse-conversion-value"?,
/// "ad-interaction-type"?, "country-code"?}`, the JWS (RFC 7515 compact serialization, ES256) holding the signed
/// members. Only what the JWS payload says is kept as the campaign; the conversion values around it are not signed
/// (Apple's AdAttributionKit documentation, cited in docs/postbacks.md).
public struct AAKPostback: Sendable, Equatable {
    /// What Handoff keeps of it.
    public let facts: PostbackFacts
    /// The JWS header's `kid`: which of Apple's keys signed it.
    public let keyId: String
    /// The JWS signing input, `base64url(header) "." base64url(payload)`, as ASCII bytes.
    public let signingInput: [UInt8]
    /// The JWS signature: raw `R ‖ S` (64 bytes for ES256).
    public let signature: [UInt8]

    /// Characters a `jws-string` may have (its parts are short: two small JSON objects and 64 bytes).
    public static let maxJWSLength = 4096

    /// The postback in `body`, or 400 `invalid` naming the first member that is wrong. The signature is not checked
    /// here.
    public static func parse(_ body: [UInt8]) -> Result<AAKPostback, IngestRefusal> {
        Result { () throws(IngestRefusal) -> AAKPostback in
            let outer = try PostbackJSON.parse(body).get()
            let jws = try outer.string("jws-string", maxLength: maxJWSLength)
            let values = try outer.conversionValues()
            let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, let headerBytes = Base64URLText.decode(parts[0]),
                  let payloadBytes = Base64URLText.decode(parts[1]), let signature = Base64URLText.decode(parts[2])
            else { throw .invalid("jws-string must be a compact JWS: three base64url parts") }
            let header = try PostbackJSON.parse(headerBytes).mapError { _ in
                IngestRefusal.invalid("jws-string's header must be a JSON object")
            }.get()
            guard header.optionalString("alg") == "ES256" else { throw .invalid("jws-string's alg must be ES256") }
            guard let keyId = header.optionalString("kid", maxLength: 128) else {
                throw .invalid("jws-string's kid must be a string")
            }
            let payload = try PostbackJSON.parse(payloadBytes).mapError { _ in
                IngestRefusal.invalid("jws-string's payload must be a JSON object")
            }.get()
            let facts = try read(payload, values: values)
            return AAKPostback(facts: facts, keyId: keyId, signingInput: Array("\(parts[0]).\(parts[1])".utf8),
                               signature: signature)
        }
    }

    private static func read(_ payload: PostbackJSON, values: (fine: Int?, coarse: String?))
        throws(IngestRefusal) -> PostbackFacts
    {
        let identifier = try payload.string("postback-identifier", maxLength: 128)
        let network = try payload.string("ad-network-identifier")
        guard let source = payload.optionalString("source-identifier", maxLength: 4), source.utf8.count >= 2,
              source.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { throw .invalid("source-identifier must be 2 to 4 digits") }
        let app = try payload.integer("advertised-item-identifier", maximum: Int64.max)
        guard app.value > 0 else { throw .invalid("advertised-item-identifier must be an integer from 1") }
        let won = try payload.bool("did-win")
        let sequence = try payload.integer("postback-sequence-index", maximum: 2)
        let publisher = payload.optionalInteger("publisher-item-identifier", maximum: Int64.max)
        return PostbackFacts(
            kind: .aak, version: nil, transactionId: identifier, adNetworkId: network, sourceIdentifier: source,
            appStoreId: app.value, didWin: won, sequenceIndex: Int(sequence.value), conversionValue: values.fine,
            coarseConversionValue: values.coarse,
            sourceAppId: publisher.flatMap { $0.value > 0 ? $0.value : nil }, sourceDomain: nil)
    }
}
