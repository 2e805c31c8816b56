/// Stored state that does not read back as the write model wrote it (a row that does not parse, a code that was
/// minted but does not decode). Not a refusal: the edge answers a generic 500 and logs `message`.
public struct InconsistentState: Error, Sendable, CustomStringConvertible {
    /// What did not read back, for the log.
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
