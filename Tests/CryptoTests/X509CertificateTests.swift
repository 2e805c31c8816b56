import Crypto
import Testing

/// Parsing certificates from DER and PEM, extensions, validity and keys, on Apple's fixture certificates.
struct X509CertificateTests {
    private static let leafOID = "1.2.840.113635.100.6.11.1"
    private static let intermediateOID = "1.2.840.113635.100.6.2.1"

    private func pem(_ name: String) -> X509Certificate {
        let certificates = X509Certificate.certificates(pem: AppleFixtures.certificateText(name))
        precondition(certificates.count == 1, "\(name) holds \(certificates.count) certificates")
        return certificates[0]
    }

    private func der(_ name: String) -> X509Certificate {
        guard let certificate = X509Certificate(der: AppleFixtures.certificateFile(name)) else {
            fatalError("\(name) does not parse")
        }
        return certificate
    }

    @Test func theTestRootReadsTheSameFromDERAndFromPEM() {
        let fromDER = der("testCA.der")
        let fromPEM = pem("testCA.pem")
        #expect(fromDER == fromPEM)
        #expect(fromPEM.der == AppleFixtures.certificateFile("testCA.der"))
    }

    @Test func fileContentsAreReadAsPEMOrAsDER() {
        #expect(X509Certificate.certificates(fileContents: AppleFixtures.certificateFile("testCA.der")).count == 1)
        #expect(X509Certificate.certificates(fileContents: AppleFixtures.certificateFile("testLeaf.pem")).count == 1)
        let both = AppleFixtures.certificateText("testLeaf.pem") + AppleFixtures.certificateText("testCA.pem")
        #expect(X509Certificate.certificates(fileContents: Array(both.utf8))
            == [pem("testLeaf.pem"), pem("testCA.pem")])
        #expect(X509Certificate.certificates(fileContents: Array("not a certificate".utf8)).isEmpty)
        #expect(X509Certificate.certificates(fileContents: []).isEmpty)
    }

    @Test func aKeyFileHoldsNoCertificate() {
        #expect(X509Certificate.certificates(pem: AppleFixtures.certificateText("testLeaf.key")).isEmpty)
    }

    @Test func aBrokenPEMBlockYieldsNothing() {
        let text = AppleFixtures.certificateText("testCA.pem").replacingOccurrences(of: "MIIB", with: "MIIC")
        #expect(X509Certificate.certificates(pem: text).isEmpty)
    }

    @Test func truncatedOrExtendedDERIsRefused() {
        let bytes = AppleFixtures.certificateFile("testCA.der")
        #expect(X509Certificate(der: Array(bytes.dropLast())) == nil)
        #expect(X509Certificate(der: bytes + [0]) == nil)
        #expect(X509Certificate(der: []) == nil)
        #expect(X509Certificate(der: [0x30, 0x03, 0x02, 0x01, 0x01]) == nil)
    }

    @Test func theLeafCarriesTheReceiptSigningOIDAndNotTheIntermediateOne() {
        let leaf = pem("testLeaf.pem")
        #expect(leaf.hasExtension(oid: Self.leafOID))
        #expect(!leaf.hasExtension(oid: Self.intermediateOID))
        #expect(pem("testIntermediate.pem").hasExtension(oid: Self.intermediateOID))
        #expect(!der("testCA.der").hasExtension(oid: Self.intermediateOID))
    }

    @Test func theInvalidOIDFixturesLackTheirOIDs() {
        #expect(!der("testInvalidOIDLeaf.der").hasExtension(oid: Self.leafOID))
        #expect(!der("testInvalidOIDIntermediate.der").hasExtension(oid: Self.intermediateOID))
        #expect(der("testLeafForInvalidOIDIntermediate.der").hasExtension(oid: Self.leafOID))
    }

    @Test func anOIDThatIsNoOIDIsNeverPresent() {
        #expect(!pem("testLeaf.pem").hasExtension(oid: "not an oid"))
        #expect(!pem("testLeaf.pem").hasExtension(oid: ""))
    }

    @Test func validityIsReadInSecondsSince1970() {
        let leaf = pem("testLeaf.pem")
        #expect(leaf.notBefore == 1_672_954_294)  // 2023-01-05T21:31:34Z
        #expect(leaf.notAfter == 1_988_227_894)  // 2033-01-01T21:31:34Z
    }

    @Test func theRealAppleRootHasItsPublishedFingerprint() {
        #expect(Hex.encode(der("AppleRootCA-G3.der").sha256Fingerprint)
            == "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179")
    }

    @Test func onlyP256KeysAreECDSAPublicKeys() {
        #expect(pem("testLeaf.pem").ecdsaPublicKey != nil)
        #expect(der("AppleStoreSigningLeaf.der").ecdsaPublicKey != nil)
        // The WWDR intermediate and the root are P-384.
        #expect(der("AppleWWDRCA-G6.der").ecdsaPublicKey == nil)
        #expect(der("AppleRootCA-G3.der").ecdsaPublicKey == nil)
    }
}
