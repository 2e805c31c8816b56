import Domain
import Foundation
import Testing

/// An install's journey keys (docs/app-identity.md "Journey keys") and the two versions of `AppInstallRecorded`.
@Suite struct InstallJourneyTests {
    @Test func onlyThePresentKeysAreSealedEachUnderTheFieldOfItsName() {
        let journey = InstallJourney(x3c: "c", gclid: "g", link: "l", metaUtmContent: "{}")
        #expect(journey.fields.map(\.field) == [.x3c, .gclid, .link, .utmContent])
        #expect(journey.fields.map(\.text) == ["c", "g", "l", "{}"])
        #expect(InstallJourney().fields.isEmpty)
        #expect(InstallJourney(appleAdsToken: "t", metaReferrer: "m").fields.map(\.field.rawValue)
                == ["appleAdsToken", "metaReferrer"])
    }

    @Test func eachSealedKeyGoesToTheMemberOfItsFieldAndOthersAreIgnored() throws {
        let sealed = try #require(SealedValue("pd1." + String(repeating: "A", count: 40)))
        var keys = AppInstallRecorded.JourneyKeys()
        #expect(keys.isEmpty)
        keys.set(sealed, for: .email)
        #expect(keys.isEmpty)
        keys.set(sealed, for: .utmContent)
        keys.set(sealed, for: .appleAdsToken)
        #expect(keys.utmContent == sealed && keys.appleAdsToken == sealed && keys.x3c == nil && !keys.isEmpty)
    }

    @Test func versionOneWithClearSourcesStillDecodesAndAnUnknownVersionIsRefused() throws {
        let v1 = #"{"appId":"a","projectId":"p","installHash":"h","tier":"referrer","#
            + #""installedAt":"2026-12-01T10:00:00Z","sources":{"utmSource":"mail","gclid":"Cj0","x3c":"clk","link":"https://x.example/l"}}"#
        let data = try EventJSON.parse(v1)
        #expect(try AppInstallRecorded.upcast(data, from: 1) == data)
        let install = try JSONDecoder().decode(AppInstallRecorded.self, from: Data(v1.utf8))
        #expect(install.sources.x3c == "clk" && install.sources.gclid == "Cj0" && install.journeyKeys == nil)
        #expect(AppInstallRecorded.schemaVersion == 2)
        #expect(throws: EventPayloadError.noUpcast(eventType: "AppInstallRecorded", from: 3, to: 2)) {
            try AppInstallRecorded.upcast(data, from: 3)
        }
    }
}
