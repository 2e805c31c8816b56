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
