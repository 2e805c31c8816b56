import API
import Commands
import Crypto
import Domain
import EventStore
import Foundation
import HTTPServer
import Postgres
import Testing
import TestSupport

/// A batch's `id{s,xid,em,emg,lid}` kept as the install's account tokens, and the `identity` install tier (issue 20):
/// it needs attribution granted in the install's latest batch and ranks below every other source.
@Suite struct IngestIdentityTests {
    static let xid = String(repeating: "ab", count: 32)
    static let em = String(repeating: "cd", count: 32)

    /// A batch of install `inst` (in its session `S-<inst>`) of the iOS app with `id` members `identity` (JSON
    /// members), consent `cs` and erase proof `dp` (the protocol example's when nil).
    static func batch(_ key: String, inst: String, identity: String?, cs: String = "gggg",
                      dp: String? = nil) -> [UInt8] {
        var text = IngestBatchTests.batch(key: key, cs: cs, extra: identity.map { #","id":{"s":"S-1",\#($0)}"# } ?? "")
            .replacingOccurrences(of: #""inst":"I-4F2A""#, with: #""inst":"\#(inst)""#)
            .replacingOccurrences(of: #""S-1""#, with: #""S-\#(inst)""#)
        if let dp { text = text.replacingOccurrences(of: String(repeating: "0a", count: 32), with: dp) }
        return Array(text.utf8)
    }

    /// The install of `inst` of the iOS app, with consent `cs` and `sources` (JSON members, each with a leading
    /// comma).
    static func install(_ key: String, inst: String, cs: String = "gggg", sources: String = "") -> [UInt8] {
        Array(IngestInstallTests.install(key: key, inst: inst, plat: "ios", bid: "com.example.Reader", cs: cs,
                                         sources: sources).utf8)
    }

    private func tokens(_ fixture: IngestFixture, app: String) throws -> [String] {
        try fixture.apps.tenants.ownerConnection().query("""
            SELECT kind || ':' || token || ':' || attribution::text AS t, install_hash FROM app_install_identities
            WHERE app_id = $1::uuid ORDER BY kind
            """, [.text(app)]).rows.map { try $0.string("t") }
    }

    private func tier(_ fixture: IngestFixture, app: String, inst: String) throws -> String? {
        let hash = Hex.encodeHMAC(app: app, inst: inst)
        return try fixture.apps.tenants.ownerConnection().query(
            "SELECT tier FROM app_installs WHERE app_id = $1::uuid AND install_hash = $2",
            [.text(app), .text(hash)]).rows.first?.string("tier")
    }

    private func identified(_ fixture: IngestFixture, app: String) throws -> [String] {
        try fixture.apps.tenants.ownerConnection().query("""
            SELECT data->>'previousTier' AS previous FROM events
            WHERE event_type = 'AppInstallIdentified' AND data->>'appId' = $1 ORDER BY global_pos
            """, [.text(app)]).rows.map { try $0.string("previous") }
    }

    @Test func aStoredBatchKeepsItsIdentityAsTheInstallsTokensWithItsLatestAttribution() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let identity = #""xid":"\#(Self.xid)","em":"\#(Self.em)""#
        #expect(fixture.batch(Self.batch(app.key, inst: "A", identity: identity)).status == 200)
        #expect(try tokens(fixture, app: app.appId) == ["em:\(Self.em):true", "xid:\(Self.xid):true"])
        let hashes = try fixture.apps.tenants.ownerConnection().query(
            "SELECT DISTINCT install_hash FROM app_install_identities WHERE app_id = $1::uuid",
            [.text(app.appId)]).rows.map { try $0.string("install_hash") }
        #expect(hashes == [Hex.encodeHMAC(app: app.appId, inst: "A")])
        // A later batch that denies attribution moves the tokens' attribution; one not stored keeps nothing.
        #expect(fixture.batch(Self.batch(app.key, inst: "A", identity: identity, cs: "gdgg")).status == 200)
        #expect(try tokens(fixture, app: app.appId) == ["em:\(Self.em):false", "xid:\(Self.xid):false"])
        let refused = fixture.batch(Self.batch(app.key, inst: "A", identity: #""emg":"\#(Self.em)""#, cs: "dggg"))
        #expect(bodyText(refused).contains(#""reason":"consent""#))
        #expect(try tokens(fixture, app: app.appId).count == 2)
    }

    @Test func hashesInUppercaseHexAreKeptInLowercaseSoTheServerSideErasureFindsThem() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let identity = #""xid":"\#(Self.xid.uppercased())""#
        #expect(fixture.batch(Self.batch(app.key, inst: "A", identity: identity,
                                         dp: String(repeating: "AB", count: 32))).status == 200)
        #expect(try tokens(fixture, app: app.appId) == ["xid:\(Self.xid):true"])
        let proof = try fixture.apps.tenants.ownerConnection().query(
            "SELECT proof FROM app_install_erase_proofs WHERE app_id = $1::uuid", [.text(app.appId)]).rows
        #expect(try proof.map { try $0.string("proof") } == [String(repeating: "ab", count: 32)])
    }

    @Test func aLaterBatchWithoutAnIdentityThatDeniesAttributionKeepsTheInstallFromTheIdentityTier() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        #expect(fixture.batch(Self.batch(app.key, inst: "A", identity: #""xid":"\#(Self.xid)""#)).status == 200)
        #expect(try tokens(fixture, app: app.appId) == ["xid:\(Self.xid):true"])
        // The install's latest batch names no identity and denies attribution: its tokens no longer count.
        #expect(fixture.batch(Self.batch(app.key, inst: "A", identity: nil, cs: "gdgg")).status == 200)
        #expect(try tokens(fixture, app: app.appId) == ["xid:\(Self.xid):false"])
        #expect(bodyText(fixture.install(Self.install(app.key, inst: "A"))) == #"{"ok":true,"tier":"organic"}"#)
        // Another install's batch changes nothing of this one's.
        #expect(fixture.batch(Self.batch(app.key, inst: "B", identity: nil, cs: "gggg")).status == 200)
        #expect(try tokens(fixture, app: app.appId) == ["xid:\(Self.xid):false"])
        // Granted again in a batch without an identity: the tokens count again, for an install recorded later.
        #expect(fixture.batch(Self.batch(app.key, inst: "A", identity: nil, cs: "gggg")).status == 200)
        #expect(try tokens(fixture, app: app.appId) == ["xid:\(Self.xid):true"])
    }

    @Test func anOrganicInstallBecomesIdentityOnceABatchIdentifiesItWithAttributionGranted() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        #expect(bodyText(fixture.install(Self.install(app.key, inst: "A"))) == #"{"ok":true,"tier":"organic"}"#)
        let identity = #""xid":"\#(Self.xid)""#
        #expect(fixture.batch(Self.batch(app.key, inst: "A", identity: identity, cs: "gdgg")).status == 200)
        #expect(try tier(fixture, app: app.appId, inst: "A") == "organic")
        #expect(fixture.batch(Self.batch(app.key, inst: "A", identity: identity)).status == 200)
        #expect(try tier(fixture, app: app.appId, inst: "A") == "identity")
        #expect(fixture.batch(Self.batch(app.key, inst: "A", identity: identity)).status == 200)
        #expect(try identified(fixture, app: app.appId) == ["organic"])
        // A re-sent install answers the tier it has now.
        #expect(bodyText(fixture.install(Self.install(app.key, inst: "A"))) == #"{"ok":true,"tier":"identity"}"#)
        let read = fixture.apps.send(.get, "/s2s/v1/apps/\(app.appId)/installs", key: app.tenant.key)
        let days = try #require(jsonObject(read)["days"] as? [[String: Any]])
        #expect((days.first?["tiers"] as? [String: Int])?["identity"] == 1)
        // `handoff replay` folds the move again.
        let owner = try fixture.apps.tenants.ownerConnection()
        try owner.execute("UPDATE app_installs SET tier = 'organic'")
        _ = try Replayer(projections: ProjectionRegistry.service).run(on: owner)
        #expect(try tier(fixture, app: app.appId, inst: "A") == "identity")
    }

    @Test func anUnknownInstallBecomesIdentityWhenALaterBatchGrantsAttribution() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let answer = fixture.install(Self.install(app.key, inst: "A", cs: "gdgg"))
        #expect(bodyText(answer) == #"{"ok":true,"tier":"unknown"}"#)
        #expect(fixture.batch(Self.batch(app.key, inst: "A", identity: #""lid":"\#(Self.em)""#)).status == 200)
        #expect(try tier(fixture, app: app.appId, inst: "A") == "identity")
        #expect(try identified(fixture, app: app.appId) == ["unknown"])
    }

    @Test func aHigherTierStaysAndAnInstallAfterItsIdentityIsIdentityAtOnce() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let identity = #""xid":"\#(Self.xid)""#
        let link = #","link":"https://r.example.com/p/1""#
        let linked = fixture.install(Self.install(app.key, inst: "A", sources: link))
        #expect(bodyText(linked) == #"{"ok":true,"tier":"link"}"#)
        #expect(fixture.batch(Self.batch(app.key, inst: "A", identity: identity)).status == 200)
        #expect(try tier(fixture, app: app.appId, inst: "A") == "link")
        // Batches before the install: its latest granting attribution makes the install identity, else not.
        #expect(fixture.batch(Self.batch(app.key, inst: "B", identity: identity)).status == 200)
        #expect(bodyText(fixture.install(Self.install(app.key, inst: "B"))) == #"{"ok":true,"tier":"identity"}"#)
        #expect(fixture.batch(Self.batch(app.key, inst: "C", identity: identity)).status == 200)
        #expect(fixture.batch(Self.batch(app.key, inst: "C", identity: identity, cs: "gdgg")).status == 200)
        #expect(bodyText(fixture.install(Self.install(app.key, inst: "C"))) == #"{"ok":true,"tier":"organic"}"#)
        #expect(try identified(fixture, app: app.appId).isEmpty)
    }

    @Test func anotherAppsBatchDoesNotIdentifyThisAppsInstall() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let other = try fixture.app()
        #expect(bodyText(fixture.install(Self.install(app.key, inst: "A"))) == #"{"ok":true,"tier":"organic"}"#)
        #expect(fixture.batch(Self.batch(other.key, inst: "A", identity: #""xid":"\#(Self.xid)""#)).status == 200)
        #expect(try tier(fixture, app: app.appId, inst: "A") == "organic")
        #expect(try tokens(fixture, app: app.appId).isEmpty)
    }
}

extension Hex {
    /// The install's keyed hash as the server keeps it: HMAC-SHA256(the test lookup pepper, `appId:inst`).
    static func encodeHMAC(app: String, inst: String) -> String {
        encode(HMAC.sha256(key: TestIdentity.secrets().lookupPepper, message: Array("\(app):\(inst)".utf8)))
    }
}
