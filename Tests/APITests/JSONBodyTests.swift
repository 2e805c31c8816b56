import API
import Domain
import Testing

/// Malformed and mistyped bodies become 400s whose message names the problem and the field.
@Suite struct JSONBodyTests {
    struct Item: Decodable { let sku: String; let quantity: Int }
    struct Order: Decodable { let externalId: String; let email: String?; let items: [Item] }

    private func refusal(_ json: String) -> APIError? {
        do {
            _ = try JSONBody.decode(Order.self, from: Array(json.utf8))
            return nil
        } catch {
            return error as? APIError
        }
    }

    @Test func aWellFormedBodyDecodes() throws {
        let order = try JSONBody.decode(
            Order.self, from: Array(#"{"externalId":"u1","items":[{"sku":"a","quantity":2}]}"#.utf8))
        #expect(order.externalId == "u1")
        #expect(order.items.first?.quantity == 2)
    }

    @Test(arguments: [
        ("", "INVALID_JSON", "the body is empty; a JSON object is required"),
        ("  \n", "INVALID_JSON", "the body is empty; a JSON object is required"),
        (#"{"externalId":"#, "INVALID_JSON", "the body is not valid JSON"),
        ("not json", "INVALID_JSON", "the body is not valid JSON"),
        ("[1,2]", "INVALID_JSON", "the body must be a JSON object"),
        (#"{"items":[]}"#, "VALIDATION_FAILED", "field 'externalId' is required"),
        (#"{"externalId":5,"items":[]}"#, "VALIDATION_FAILED", "field 'externalId' must be a string"),
        (#"{"externalId":null,"items":[]}"#, "VALIDATION_FAILED", "field 'externalId' must not be null"),
        (#"{"externalId":"u","items":{}}"#, "VALIDATION_FAILED", "field 'items' must be an array"),
        (#"{"externalId":"u","items":[{"sku":"a","quantity":1},{"sku":"b"}]}"#, "VALIDATION_FAILED",
         "field 'items[1].quantity' is required"),
        (#"{"externalId":"u","items":[{"sku":"a","quantity":"two"}]}"#, "VALIDATION_FAILED",
         "field 'items[0].quantity' must be an integer"),
    ])
    func aBadBodyIsRefusedWith400NamingTheProblem(json: String, code: String, message: String) throws {
        let error = try #require(refusal(json))
        #expect(error.status == 400)
        #expect(error.code?.rawValue == code)
        #expect(error.message == message)
    }

    @Test func theRefusalRendersInTheContractShape() throws {
        let error = try #require(refusal(#"{"items":[]}"#))
        let response = JSONResponse.error(error)
        #expect(response.status == 400)
        #expect(String(decoding: response.body, as: UTF8.self)
            == #"{"statusCode":400,"code":"VALIDATION_FAILED","message":"field 'externalId' is required"}"#)
    }
}
