import Domain
import Foundation
import Testing

/// The deciders of apps: update, token rotation, destinations, app account tokens.
struct AppDecidersTests {
    static let app = AppID(UUID(uuidString: "6f1c2e3a-9b4d-4e5f-8a7b-0c1d2e3f4a5b")!)
    static let project = ProjectID(UUID(uuidString: "0c1d2e3f-9b4d-4e5f-8a7b-6f1c2e3a4a5b")!)
    static let forward = DestinationID(UUID(uuidString: "11111111-1111-4111-8111-111111111111")!)
    static let other = DestinationID(UUID(uuidString: "22222222-2222-4222-8222-222222222222")!)
    static let fresh = DestinationID(UUID(uuidString: "33333333-3333-4333-8333-333333333333")!)
    static let sealed = SealedValue(box: Array(repeating: 7, count: 40))

    static func state(_ platform: DevicePlatform = .ios, destinations: [AppState.Destination]? = nil) -> AppState {
        AppState(facts: AppFacts(appId: app, projectId: project, platform: platform,
                                 bundleId: platform == .ios ? "com.example.App" : "com.example.app",
                                 appAppleId: nil, secrets: [:]),
                 storeTokenHash: String(repeating: "a", count: 64),
                 destinations: destinations ?? [AppState.Destination(id: forward, scheme: .x3,
                                                                     url: "https://example.com/in", isDefault: true)])
    }

    static func change(_ edit: (inout AppChange) -> Void) -> AppChange {
        var change = AppChange(fields: .json)
        edit(&change)
        return change
    }

    static func update(_ current: AppState?, _ change: AppChange, sealed: [AppSecretKind: SealedValue] = [:])
        -> Result<AppUpdate.Decision, Refusal> {
        AppUpdate.decide(current: current, change: change, sealed: sealed, newDestination: fresh)
    }

    @Test func anUnknownAppIsNotFoundEverywhere() {
        let notFound = Refusal(kind: .notFound, code: .notFound, field: "appId", message: "no app has this id")
        #expect(Self.update(nil, AppChange(fields: .json)).map(\.isUnchanged) == .failure(notFound))
        #expect(StoreTokenRotation.decide(current: nil) == .failure(notFound))
        #expect(DestinationAddition.decide(app: nil, scheme: .x3, hasSecret: false, fields: .json)
            == .failure(notFound))
        #expect(DestinationRemoval.decide(app: nil, destination: Self.forward) == .failure(notFound))
    }

    @Test func anEmptyChangeRecordsNothing() throws {
        #expect(try Self.update(Self.state(), AppChange(fields: .json)).get().isUnchanged)
    }

    @Test func theSameForwardURLAndBundleIdRecordNothing() throws {
        let decision = try Self.update(Self.state(), Self.change {
            $0.bundleId = "com.example.App"
            _ = $0.setForwardUrl("https://example.com/in")
        }).get()
        #expect(decision.isUnchanged)
    }

    @Test func aBundleIdOfTheOtherPlatformConflictsWithTheAppAndOneOfNoneIsRefused() throws {
        #expect(Self.update(Self.state(.android), Self.change { $0.bundleId = "App" }).map(\.isUnchanged)
            == .failure(Refusal(
                kind: .conflict, code: .appPlatformConflict, field: "bundleId",
                message: "field 'bundleId' must be an Android package name: two or more '.'-separated segments, "
                    + "each a letter followed by letters, digits or '_' (the app is an android app)")))
        #expect(Self.update(Self.state(.ios), Self.change { $0.bundleId = "a_b.c" }).map(\.isUnchanged)
            == .failure(Refusal(
                kind: .conflict, code: .appPlatformConflict, field: "bundleId",
                message: "field 'bundleId' must be an iOS bundle id: '.'-separated segments of letters, digits or "
                    + "'-' (the app is an ios app)")))
        #expect(Self.update(Self.state(.ios), Self.change { $0.bundleId = "a..b" }).map(\.isUnchanged)
            == .failure(Refusal(FieldRefusal(
                field: "bundleId", code: .bundleIDFormat,
                rule: "be an iOS bundle id: '.'-separated segments of letters, digits or '-'"))))
        #expect(try Self.update(Self.state(.ios), Self.change { $0.bundleId = "App" }).get().facts.bundleId == "App")
    }

    @Test func aNewForwardURLReplacesTheDefaultDestination() throws {
        let decision = try Self.update(Self.state(), Self.change { _ = $0.setForwardUrl("https://example.com/v2") })
            .get()
        #expect(decision.removed == Self.forward)
        #expect(decision.added == AppState.Destination(id: Self.fresh, scheme: .x3, url: "https://example.com/v2",
                                                       isDefault: true))
        #expect(!decision.settingsChanged)
    }

    @Test func clearingTheForwardURLRemovesTheDefaultAndNothingWhenThereIsNone() throws {
        #expect(try Self.update(Self.state(), Self.change { _ = $0.setForwardUrl(nil) }).get().removed == Self.forward)
        #expect(try Self.update(Self.state(destinations: []), Self.change { _ = $0.setForwardUrl(nil) }).get()
            .isUnchanged)
    }

    @Test func secretsAreSetSealedAndCleared() throws {
        var current = Self.state()
        let set = try Self.update(current, Self.change { _ = $0.setSecret(.revenuecatSecret, "s") },
                                  sealed: [.revenuecatSecret: Self.sealed]).get()
        #expect(set.settingsChanged && set.facts.secrets == [.revenuecatSecret: Self.sealed])
        current.facts = set.facts
        let cleared = try Self.update(current, Self.change { _ = $0.setSecret(.revenuecatSecret, nil) }).get()
        #expect(cleared.settingsChanged && cleared.facts.secrets.isEmpty)
        #expect(try Self.update(Self.state(), Self.change { _ = $0.setSecret(.googlePushAudience, nil) }).get()
            .isUnchanged)
    }

    @Test func theAppStoreIdIsSetAndCleared() throws {
        let set = try Self.update(Self.state(), Self.change { _ = $0.setAppAppleId(99) }).get()
        #expect(set.facts.appAppleId == 99)
        #expect(Self.change { _ = $0.setAppAppleId(0) }.appAppleId == .unchanged)
    }

    @Test func rotationRetiresTheLiveToken() {
        #expect(StoreTokenRotation.decide(current: Self.state()) == .success(String(repeating: "a", count: 64)))
    }

    @Test func attribloomIsForIosAppsOnlyAndNeedsASecret() {
        #expect(DestinationAddition.decide(app: Self.state(.ios), scheme: .attribloom, hasSecret: true,
                                           fields: .json) == .success(.add))
        #expect(DestinationAddition.decide(app: Self.state(.android), scheme: .attribloom, hasSecret: true,
                                           fields: .flags) == .failure(Refusal(
            kind: .conflict, code: .appPlatformConflict, field: "--scheme",
            message: "field '--scheme' must be x3 for an android app (attribloom takes App Store notifications "
                + "only)")))
        #expect(DestinationAddition.decide(app: Self.state(.ios), scheme: .attribloom, hasSecret: false,
                                           fields: .json) == .failure(Refusal(FieldRefusal(
            field: "secret", code: .secretFormat, rule: "be given for an attribloom destination"))))
        #expect(DestinationAddition.decide(app: Self.state(.android), scheme: .x3, hasSecret: false, fields: .json)
            == .success(.add))
    }

    @Test func anAppHasAtMost20Destinations() {
        let full = (0..<20).map { index in
            AppState.Destination(id: DestinationID(randomBytes: Array(repeating: UInt8(index), count: 16)),
                                 scheme: .x3, url: "https://example.com/\(index)", isDefault: false)
        }
        #expect(DestinationAddition.decide(app: Self.state(destinations: Array(full.dropLast())), scheme: .x3,
                                           hasSecret: false, fields: .json) == .success(.add))
        #expect(DestinationAddition.decide(app: Self.state(destinations: full), scheme: .x3, hasSecret: false,
                                           fields: .json) == .failure(Refusal(
            kind: .conflict, code: .destinationLimit, field: nil,
            message: "the app already has 20 destinations; remove one first")))
    }

    @Test func onlyALiveDestinationOfTheAppIsRemoved() {
        #expect(DestinationRemoval.decide(app: Self.state(), destination: Self.forward) == .success(.remove))
        #expect(DestinationRemoval.decide(app: Self.state(), destination: Self.other) == .failure(
            .notFound("the app has no destination with this id", field: "destinationId")))
    }

    @Test func anAppAccountTokenIsMintedOnceAndNeverForAForeignGuid() {
        let org = OrgID(randomBytes: Array(repeating: 1, count: 16))
        let another = OrgID(randomBytes: Array(repeating: 2, count: 16))
        let minted = UUID()
        let new = UUID()
        #expect(AppAccountTokenMinting.decide(org: org, homeOrg: nil, existing: nil, newToken: new)
            == .success(.mint(new)))
        #expect(AppAccountTokenMinting.decide(org: org, homeOrg: org, existing: nil, newToken: new)
            == .success(.mint(new)))
        #expect(AppAccountTokenMinting.decide(org: org, homeOrg: org, existing: minted, newToken: new)
            == .success(.existing(minted)))
        #expect(AppAccountTokenMinting.decide(org: org, homeOrg: nil, existing: minted, newToken: new)
            == .success(.existing(minted)))
        #expect(AppAccountTokenMinting.decide(org: org, homeOrg: another, existing: minted, newToken: new)
            == .failure(.foreignBuyer()))
    }

    @Test func appEventsRoundTripWithEveryKeyWritten() throws {
        var facts = Self.state().facts
        facts.secrets = [.googleServiceAccountKey: Self.sealed]
        facts.appAppleId = Int64.max
        let created = AppCreated(facts, storeTokenHash: String(repeating: "b", count: 64), storeToken: Self.sealed)
        let json = try created.eventJSON()
        #expect(json["revenuecatSecret"] == .null && json["storeToken"]?.stringValue == Self.sealed.text)
        #expect(json["appAppleId"] == .integer(Int64.max))
        let decoded = try JSONDecoder().decode(AppCreated.self, from: Data(json.canonicalBytes))
        #expect(decoded == created)
        let added = AppDestinationAdded(appId: Self.app, destinationId: Self.forward, scheme: .x3, url: "https://a",
                                        secret: nil, isDefault: true)
        #expect(try added.eventJSON()["secret"] == .null)
    }
}
