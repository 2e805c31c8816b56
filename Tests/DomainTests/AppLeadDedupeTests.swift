import Domain
import Testing

struct AppLeadDedupeTests {
    static func key(_ eventId: String? = "E-1", install: String = "i1", form: String = "contact",
                    contact: String = "c1") -> AppLeadDedupe.Key {
        AppLeadDedupe.Key(eventId: eventId, installHash: install, form: form, contactHash: contact)
    }

    @Test func aLeadWithNothingRecentIsNew() {
        #expect(!AppLeadDedupe.isRepeat(Self.key(), of: []))
    }

    @Test func theSameEventIdRepeatsEvenFromAnotherInstallWithAnotherContact() {
        #expect(AppLeadDedupe.isRepeat(Self.key(install: "i2", contact: "c2"), of: [Self.key()]))
    }

    @Test func theSameInstallFormAndContactRepeatUnderAnotherEventId() {
        #expect(AppLeadDedupe.isRepeat(Self.key("E-2"), of: [Self.key()]))
        #expect(AppLeadDedupe.isRepeat(Self.key(nil), of: [Self.key(nil)]))
    }

    @Test func anotherFormInstallOrContactIsANewLead() {
        #expect(!AppLeadDedupe.isRepeat(Self.key("E-2", form: "newsletter"), of: [Self.key()]))
        #expect(!AppLeadDedupe.isRepeat(Self.key("E-2", install: "i2"), of: [Self.key()]))
        #expect(!AppLeadDedupe.isRepeat(Self.key("E-2", contact: "c2"), of: [Self.key()]))
    }

    @Test func twoLeadsWithoutEventIdsAreNotRepeatsByThatAlone() {
        #expect(!AppLeadDedupe.isRepeat(Self.key(nil, install: "i2"), of: [Self.key(nil)]))
    }

    @Test func theWindowIsTwoMinutes() {
        #expect(AppLeadDedupe.window == 120)
    }
}

struct SignupLeadTests {
    @Test func accountCreatedWithAnIdentityAndTheSettingOnMakesALead() {
        #expect(SignupLead.applies(settingOn: true, eventNames: ["app_open", "account_created"], hasIdentity: true))
    }

    @Test func identifyAloneNeverDoes() {
        #expect(!SignupLead.applies(settingOn: true, eventNames: ["app_open"], hasIdentity: true))
    }

    @Test func accountCreatedWithoutAnIdentityDoesNot() {
        #expect(!SignupLead.applies(settingOn: true, eventNames: ["account_created"], hasIdentity: false))
    }

    @Test func withTheSettingOffNothingDoes() {
        #expect(!SignupLead.applies(settingOn: false, eventNames: ["account_created"], hasIdentity: true))
    }

    @Test func aSignupLeadIsMadeOncePerInstallEver() {
        let lead = AppLeadDedupeTests.key(nil)
        #expect(AppLeadDedupe.isRepeat(lead, of: [], signup: true, installSignedUp: true))
        #expect(!AppLeadDedupe.isRepeat(lead, of: [lead], signup: true, installSignedUp: false))
    }
}
