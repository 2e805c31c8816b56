import Foundation

/// One HTTP answer as the library reads it: status, `Retry-After`, and the body.
struct ServerAnswer: Sendable {
    let status: Int
    /// Seconds from `Retry-After` (429 and 503 carry it), nil when absent or not a number of seconds.
    let retryAfter: TimeInterval?
    let body: Data

    /// The `code` of an error body (`{"statusCode":…,"code":…,"message":…}`), nil when the body has none.
    var machineCode: String? {
        (try? JSONDecoder().decode(ErrorBody.self, from: body))?.code
    }

    /// The `data` of a success body (`{"success":true,"data":{…}}`).
    func data<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try JSONDecoder().decode(SuccessBody<Value>.self, from: body).data
    }

    private struct ErrorBody: Decodable {
        let code: String?
    }

    private struct SuccessBody<Value: Decodable>: Decodable {
        let data: Value
    }
}
