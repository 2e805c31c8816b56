/// A coding key named by any string: for bodies decoded field by field, where unknown fields are refused.
struct JSONField: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension JSONBody {
    /// Throws a 400 naming the first field (in name order) that is not in `allowed`: a misspelt field must not be
    /// silently ignored. `what` completes "field 'x' is not …" (e.g. "a field of a payment").
    static func refuseUnknownFields(
        in container: KeyedDecodingContainer<JSONField>, allowed: Set<String>, what: String
    ) throws {
        for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue })
        where !allowed.contains(key.stringValue) {
            throw APIError.validation("field '\(path([key]))' is not \(what)")
        }
    }
}
