import Foundation

/// Why a command did not happen: the one refusal the write model throws, mapped to an HTTP answer once at the edge.
///
/// `kind` chooses the status class (`invalid` 400, `notFound` 404, `conflict` 409, `unavailable` 503); `code` is the
/// stable machine code clients branch on, `field` the request field or CLI flag the refusal is about (nil when none),
/// and `message` a sentence for humans that never echoes a submitted value.
public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of refusal, which decides the status the edge answers.
    public enum Kind: Sendable, Equatable {
        /// The input breaks a rule (400).
        case invalid
        /// The command names something this tenant does not have (404).
        case notFound
        /// The command contradicts what is already recorded (409).
        case conflict
        /// A dependency cannot serve the command now; retrying later may succeed (503).
        case unavailable
    }

    public let kind: Kind
    /// The stable code carried as `code` in the error body; nil lets the edge pick its default for `kind`.
    public let code: MachineCode?
    /// The field or CLI flag the refusal is about, when there is one.
    public let field: String?
    /// A sentence for humans; it names fields, never their values.
    public let message: String

    /// A refusal with every part given.
    public init(kind: Kind, code: MachineCode?, field: String?, message: String) {
        self.kind = kind
        self.code = code
        self.field = field
        self.message = message
    }

    /// An `invalid` refusal carrying a field refusal's code, field and message unchanged.
    public init(_ refusal: FieldRefusal) {
        self.init(kind: .invalid, code: refusal.code, field: refusal.field, message: refusal.message)
    }

    /// The message, so logs and the CLI print the sentence.
    public var description: String { message }

    /// A 404 `NOT_FOUND` with `message`, about `field` when given.
    public static func notFound(_ message: String, field: String? = nil) -> Refusal {
        Refusal(kind: .notFound, code: .notFound, field: field, message: message)
    }

    /// A 503 `SERVICE_UNAVAILABLE` with `message`; the edge adds `Retry-After`.
    public static func unavailable(_ message: String) -> Refusal {
        Refusal(kind: .unavailable, code: .unavailable, field: nil, message: message)
    }

    /// A 400 `VISITOR_ID_FOREIGN_PROJECT`: the `guid` was first seen in another organization and nothing was
    /// recorded. `message` defaults to "field 'guid' names a buyer of another organization".
    public static func foreignBuyer(
        message: String = "field 'guid' names a buyer of another organization"
    ) -> Refusal {
        Refusal(kind: .invalid, code: .visitorIDForeignProject, field: "guid", message: message)
    }
}
