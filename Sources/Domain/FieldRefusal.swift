/// Why one input field was refused: the field as the client spelled it, a stable machine code, and a message.
///
/// The HTTP edge turns it into a 400 `{"statusCode":400,"code":…,"message":…}`; the admin CLI prints it.
/// The message names the field and the rule, never echoes the value (values may be secrets or personal data).
public struct FieldRefusal: Error, Hashable, Sendable {
    /// The field's name in the request (`guid`, `paymentId`, `returnScheme`), or a CLI flag.
    public let field: String
    /// The stable code clients branch on.
    public let code: MachineCode
    /// A sentence for humans that names the field and what it must look like.
    public let message: String

    /// A refusal of `field` with `code`; `rule` completes "field 'x' must …".
    public init(field: String, code: MachineCode, rule: String) {
        self.field = field
        self.code = code
        self.message = "field '\(field)' must \(rule)"
    }
}
