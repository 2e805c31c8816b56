import Domain
import Testing

struct RefusalTests {
    static let fieldRefusal = FieldRefusal(field: "guid", code: .guidFormat, rule: "be a UUID in canonical text form")

    @Test func aFieldRefusalBecomesAnInvalidRefusalWithItsCodeFieldAndMessage() {
        #expect(Refusal(Self.fieldRefusal) == Refusal(kind: .invalid, code: .guidFormat, field: "guid",
                                                      message: "field 'guid' must be a UUID in canonical text form"))
    }

    @Test func aRefusalPrintsAsItsMessage() {
        #expect(Refusal(Self.fieldRefusal).description == "field 'guid' must be a UUID in canonical text form")
    }

    @Test func notFoundCarriesTheNotFoundCodeAndTheFieldWhenGiven() {
        #expect(Refusal.notFound("no project has this id", field: "project")
            == Refusal(kind: .notFound, code: .notFound, field: "project", message: "no project has this id"))
        #expect(Refusal.notFound("gone") == Refusal(kind: .notFound, code: .notFound, field: nil, message: "gone"))
    }

    @Test func unavailableCarriesTheServiceUnavailableCode() {
        #expect(Refusal.unavailable("redis is down")
            == Refusal(kind: .unavailable, code: .unavailable, field: nil, message: "redis is down"))
    }

    @Test func aForeignBuyerIsAnInvalidVisitorIDForeignProjectAboutTheGuid() {
        #expect(Refusal.foreignBuyer() == Refusal(kind: .invalid, code: .visitorIDForeignProject, field: "guid",
                                                  message: "field 'guid' names a buyer of another organization"))
        #expect(Refusal.foreignBuyer().code?.rawValue == "VISITOR_ID_FOREIGN_PROJECT")
    }

    @Test func aForeignBuyerRefusalCanCarryTheEndpointsOwnMessage() {
        #expect(Refusal.foreignBuyer(message: "'guid' names a buyer of another organization").message
            == "'guid' names a buyer of another organization")
    }
}
