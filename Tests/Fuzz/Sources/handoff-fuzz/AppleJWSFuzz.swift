import Commands
import Crypto
@testable import Domain
import Foundation

/// `apple-jws`: the bytes as an App Store `signedPayload` (`CompactJWS.parse`, the payload decoders, the whole
/// `AppleSignedDataVerifier` against the test root, its x5c certificates through OpenSSL), and as a notification
/// payload signed in the target with the test key of `Tests/Fixtures/apple`.
///
/// Properties: a parsed JWS is three canonical base64url segments whose first two, joined by `.`, are the signing
/// input, with `alg` ES256, one to eight certificates and a 64-byte signature; a certificate that parses re-encodes
/// to its bytes; decoded payloads keep every string within its limit and a notification's UUID is canonical; a
/// verified notification is for `com.example` in Production or Sandbox, and its nested data shares its environment.
/// Signed in the target, the input as payload verifies exactly when it decodes as a notification for the app (no
/// nested JWS), and is refused as a malformed payload exactly when it does not decode.
enum AppleJWSFuzz {
    static let target = FuzzTarget(name: "apple-jws", maxLength: 16_384, run: run)

    /// Inside the validity of the test chain (2030-01-01T00:00:00Z); the clock for payloads without `signedDate`.
    static let now = Date(timeIntervalSince1970: 1_893_456_000)

    /// x5c of the test chain: testLeaf.pem, testIntermediate.pem, testCA.der (standard base64 DER).
    static let chain = [
        "MIIBoDCCAUagAwIBAgIBDDAKBggqhkjOPQQDAzBFMQswCQYDVQQGEwJVUzELMAkGA1UECAwCQ0ExEjAQBgNVBAcMCUN1cGVydGlu"
            + "bzEVMBMGA1UECgwMSW50ZXJtZWRpYXRlMB4XDTIzMDEwNTIxMzEzNFoXDTMzMDEwMTIxMzEzNFowPTELMAkGA1UEBhMCVVMxCzAJ"
            + "BgNVBAgMAkNBMRIwEAYDVQQHDAlDdXBlcnRpbm8xDTALBgNVBAoMBExlYWYwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATitYHE"
            + "aYVuc8g9AjTOwErMvGyPykPa+puvTI8hJTHZZDLGas2qX1+ErxgQTJgVXv76nmLhhRJH+j25AiAI8iGsoy8wLTAJBgNVHRMEAjAA"
            + "MA4GA1UdDwEB/wQEAwIHgDAQBgoqhkiG92NkBgsBBAIFADAKBggqhkjOPQQDAwNIADBFAiBX4c+T0Fp5nJ5QRClRfu5PSByRvNPt"
            + "uaTsk0vPB3WAIAIhANgaauAj/YP9s0AkEhyJhxQO/6Q2zouZ+H1CIOehnMzQ",
        "MIIBnzCCAUWgAwIBAgIBCzAKBggqhkjOPQQDAzA2MQswCQYDVQQGEwJVUzETMBEGA1UECAwKQ2FsaWZvcm5pYTESMBAGA1UEBwwJ"
            + "Q3VwZXJ0aW5vMB4XDTIzMDEwNTIxMzEwNVoXDTMzMDEwMTIxMzEwNVowRTELMAkGA1UEBhMCVVMxCzAJBgNVBAgMAkNBMRIwEAYD"
            + "VQQHDAlDdXBlcnRpbm8xFTATBgNVBAoMDEludGVybWVkaWF0ZTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABBUN5V9rKjfRiMAI"
            + "ojEA0Av5Mp0oF+O0cL4gzrTF178inUHugj7Et46NrkQ7hKgMVnjogq45Q1rMs+cMHVNILWqjNTAzMA8GA1UdEwQIMAYBAf8CAQAw"
            + "DgYDVR0PAQH/BAQDAgEGMBAGCiqGSIb3Y2QGAgEEAgUAMAoGCCqGSM49BAMDA0gAMEUCIQCmsIKYs41ullssHX4rVveUT0Z7Is5/"
            + "hLK1lFPTtun3hAIgc2+2RG5+gNcFVcs+XJeEl4GZ+ojl3ROOmll+ye7dynQ=",
        "MIIBgjCCASmgAwIBAgIJALUc5ALiH5pbMAoGCCqGSM49BAMDMDYxCzAJBgNVBAYTAlVTMRMwEQYDVQQIDApDYWxpZm9ybmlhMRIw"
            + "EAYDVQQHDAlDdXBlcnRpbm8wHhcNMjMwMTA1MjEzMDIyWhcNMzMwMTAyMjEzMDIyWjA2MQswCQYDVQQGEwJVUzETMBEGA1UECAwK"
            + "Q2FsaWZvcm5pYTESMBAGA1UEBwwJQ3VwZXJ0aW5vMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEc+/Bl+gospo6tf9Z7io5tdKd"
            + "rlN1YdVnqEhEDXDShzdAJPQijamXIMHf8xWWTa1zgoYTxOKpbuJtDplz1XriTaMgMB4wDAYDVR0TBAUwAwEB/zAOBgNVHQ8BAf8E"
            + "BAMCAQYwCgYIKoZIzj0EAwMDRwAwRAIgemWQXnMAdTad2JDJWng9U4uBBL5mA7WI05H7oH7c6iQCIHiRqMjNfzUAyiu9h6rOU/K+"
            + "iTR0I/3Y/NSWsXHX+acc",
    ]

    /// testLeaf.key: the key the test leaf certifies (public test material of Apple's library).
    static let key = ECDSAPrivateKey(pem: """
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEID4h7a+2lJvajaw0RBeufb17snbjEkftGq2b5BuBgXGIoAoGCCqGSM49
        AwEHoUQDQgAE4rWBxGmFbnPIPQI0zsBKzLxsj8pD2vqbr0yPISUx2WQyxmrNql9f
        hK8YEEyYFV7++p5i4YUSR/o9uQIgCPIhrA==
        -----END EC PRIVATE KEY-----
        """)!

    static let verifier = AppleSignedDataVerifier(
        roots: [X509Certificate(der: [UInt8](Data(base64Encoded: chain[2])!))!])

    static func run(_ bytes: [UInt8]) {
        let candidate = text(bytes)
        if case .success(let jws) = CompactJWS.parse(candidate) { checkParsed(jws, candidate) }
        if case .success(let verified) = verifier.verifyNotification(
            signedPayload: candidate, bundleId: "com.example", appAppleId: 1234, now: now) {
            checkVerified(verified)
        }
        checkDecoders(bytes)
        checkSigned(bytes)
    }

    static func checkParsed(_ jws: CompactJWS, _ candidate: String) {
        let segments = candidate.split(separator: ".", omittingEmptySubsequences: false)
        check(segments.count == 3, "a parsed JWS has \(segments.count) segments")
        check(jws.algorithm == "ES256", "alg \(jws.algorithm)")
        check(!jws.signature.isEmpty, "an empty signature")
        check((1...8).contains(jws.certificateChain.count), "\(jws.certificateChain.count) certificates")
        check(jws.signingInput == Array((segments[0] + "." + segments[1]).utf8), "the signing input is not the text's")
        check(Base64URLText.encode(jws.payload) == segments[1], "the payload segment is not canonical")
        check(Base64URLText.encode(jws.signature) == segments[2], "the signature segment is not canonical")
        for index in jws.certificateChain.indices {
            guard let der = jws.certificateDER(at: index), let certificate = X509Certificate(der: der) else {
                continue
            }
            check(certificate.der == der, "x5c[\(index)] does not re-encode to its bytes")
            _ = certificate.hasExtension(oid: AppleSignedDataVerifier.leafOID)
            _ = certificate.ecdsaPublicKey
        }
    }

    static func checkVerified(_ verified: VerifiedAppleNotification) {
        check(verified.payload.app.bundleId == "com.example", "verified for another bundle")
        check(verified.environment == .sandbox || verified.environment == .production,
              "verified \(verified.environment)")
        check(CanonicalUUID.parse(verified.notificationUUID) != nil, "a notification UUID that is no UUID")
        if let transaction = verified.transaction {
            check(transaction.bundleId == "com.example", "a nested transaction of another bundle")
            check(transaction.environment == verified.environment.rawValue,
                  "a nested transaction of another environment")
        }
        if let renewal = verified.renewalInfo {
            check(renewal.environment == verified.environment.rawValue, "nested renewal info of another environment")
        }
    }

    static func checkDecoders(_ bytes: [UInt8]) {
        if case .success(let notification) = AppleNotificationPayload.decode(bytes) {
            check(CanonicalUUID.parse(notification.notificationUUID) != nil, "notificationUUID is no UUID")
            check(!notification.notificationType.isEmpty, "an empty notificationType")
            check(notification.notificationType.utf8.count <= AppleFieldLimits.word, "a long notificationType")
            check((notification.app.bundleId?.utf8.count ?? 0) <= AppleFieldLimits.bundleId, "a long bundleId")
            check((notification.data?.signedTransactionInfo?.utf8.count ?? 0) <= AppleFieldLimits.nestedJWS,
                  "a long signedTransactionInfo")
        }
        if case .success(let transaction) = AppleTransaction.decode(bytes) {
            check((transaction.productId?.utf8.count ?? 0) <= AppleFieldLimits.productIdentifier,
                  "a long productId")
            check((transaction.currency?.utf8.count ?? 0) <= AppleFieldLimits.currency, "a long currency")
            check((transaction.appAccountToken?.utf8.count ?? 0) <= AppleFieldLimits.uuid, "a long appAccountToken")
        }
        if case .success(let renewal) = AppleRenewalInfo.decode(bytes) {
            check((renewal.eligibleWinBackOfferIds?.count ?? 0) <= AppleFieldLimits.listEntries, "a long list")
        }
    }

    /// The input as the payload of a JWS signed with the test key: the verifier must agree with the decoder.
    static func checkSigned(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        let header = #"{"alg":"ES256","x5c":["\#(chain[0])","\#(chain[1])","\#(chain[2])"]}"#
        let input = Base64URLText.encode(Array(header.utf8)) + "." + Base64URLText.encode(bytes)
        let signed = input + "." + Base64URLText.encode(key.signature(for: Array(input.utf8)))
        let result = verifier.verifyNotification(signedPayload: signed, bundleId: "com.example", appAppleId: 1234,
                                                 now: now)
        switch AppleNotificationPayload.decode(bytes) {
        case .failure:
            guard case .failure(.malformed(let problem)) = result, problem.reason == .malformedPayload else {
                return check(false, "an undecodable payload, signed, gave \(result)")
            }
        case .success(let notification):
            if case .failure(.malformed(let problem)) = result {
                check(problem.part != .notification, "a decodable payload, signed, was malformed: \(problem)")
            }
            let app = notification.app
            let environment = app.environment.flatMap(AppleEnvironment.init(rawValue:))
            let ownApp = app.bundleId == "com.example" && (environment == .sandbox || environment == .production)
                && (environment == .production ? app.appAppleId == 1234 : (app.appAppleId ?? 1234) == 1234)
            let dated = notification.signedDate.map { (1_672_954_294_000..<1_988_227_865_000).contains($0) } ?? true
            let nested = notification.data?.signedTransactionInfo != nil || notification.data?.signedRenewalInfo != nil
            if !nested {
                check(((try? result.get()) != nil) == (ownApp && dated),
                      "signed with the test key, own app \(ownApp), dated \(dated), gave \(result)")
            }
            if case .success(let verified) = result { check(verified.payload == notification, "another payload") }
        }
    }
}
