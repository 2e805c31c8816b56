import Foundation

/// A SKAdNetwork install-validation postback of version 3 or 4, read from its JSON body, with the byte string its
/// `attribution-signature` signs.
///
/// The signed string is the field values joined by U+2063 (INVISIBLE SEPARATOR), booleans as `true`/`false`, in the
/// version's order as Apple's StoreKit documentation gives it (docs/postbacks.md cites the pages):
/// - 3.0: version, ad-network-id, campaign-id, app-id, transaction-id, redownload, source-app-id (only when present),
///   fidelity-type, did-win.
/// - 4.0: version, ad-network-id, source-identifier, app-id, transaction-id, redownload, source-app-id or
///   source-domain (only when present), fidelity-type, did-win, postback-sequence-index.
/// Conversion values are never signed.
public struct SKANPostback: Sendable, Equatable {
    /// The versions this reads (issue 21): older ones are signed over other fields, some with another key.
    public static let versions = ["3.0", "4.0"]
    /// The separator between signed values.
    static let separator = "\u{2063}"

    /// What Handoff keeps of it.
    public let facts: PostbackFacts
    /// The UTF-8 bytes `attribution-signature` signs.
    public let signedMessage: [UInt8]
    /// `attribution-signature`, base64-decoded: a DER `ECDSA-Sig-Value` (ECDSA with SHA-256).
    public let signature: [UInt8]

    /// The postback in `body`, or 400 `invalid` naming the first field that is wrong.
    public static func parse(_ body: [UInt8]) -> Result<SKANPostback, IngestRefusal> {
        Result { () throws(IngestRefusal) -> SKANPostback in
            let json = try PostbackJSON.parse(body).get()
            return try read(json)
        }
    }

    private static func read(_ json: PostbackJSON) throws(IngestRefusal) -> SKANPostback {
        let version = try json.string("version", maxLength: 8)
        guard versions.contains(version) else { throw .invalid("version must be 3.0 or 4.0") }
        let four = version == "4.0"
        let network = try json.string("ad-network-id")
        let source: String
        if four {
            guard let text = json.optionalString("source-identifier", maxLength: 4), text.utf8.count >= 2,
                  text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
            else { throw .invalid("source-identifier must be 2 to 4 digits") }
            source = text
        } else {
            source = try json.integer("campaign-id").text
        }
        let app = try json.integer("app-id", maximum: Int64.max)
        guard app.value > 0 else { throw .invalid("app-id must be an integer from 1") }
        let transaction = try json.string("transaction-id", maxLength: 128)
        let redownload = try json.bool("redownload")
        var sourceApp: (value: Int64, text: String)?
        if json.has("source-app-id") {
            guard let value = json.optionalInteger("source-app-id", maximum: Int64.max) else {
                throw .invalid("source-app-id must be an integer from 0")
            }
            sourceApp = value
        }
        var domain: String?
        if json.has("source-domain") {
            guard four, sourceApp == nil, let text = json.optionalString("source-domain", maxLength: 253) else {
                throw .invalid("source-domain must be a domain of a version 4.0 web ad, without source-app-id")
            }
            domain = text
        }
        let fidelity = try json.integer("fidelity-type", maximum: 1).text
        let won = try json.bool("did-win")
        var sequence: Int?
        if four { sequence = Int(try json.integer("postback-sequence-index", maximum: 2).value) }
        let values = try json.conversionValues()
        guard let signatureText = json.optionalString("attribution-signature", maxLength: 256),
              let signature = Data(base64Encoded: signatureText), (8...128).contains(signature.count)
        else { throw .invalid("attribution-signature must be the base64 of a DER ECDSA signature") }

        var fields = [version, network, source, app.text, transaction, redownload ? "true" : "false"]
        if let sourceApp { fields.append(sourceApp.text) }
        if let domain { fields.append(domain) }
        fields += [fidelity, won ? "true" : "false"]
        if let sequence { fields.append(String(sequence)) }
        let facts = PostbackFacts(
            kind: .skan, version: version, transactionId: transaction, adNetworkId: network, sourceIdentifier: source,
            appStoreId: app.value, didWin: won, sequenceIndex: sequence, conversionValue: values.fine,
            coarseConversionValue: values.coarse, sourceAppId: sourceApp?.value, sourceDomain: domain)
        return SKANPostback(facts: facts, signedMessage: Array(fields.joined(separator: separator).utf8),
                            signature: Array(signature))
    }
}
