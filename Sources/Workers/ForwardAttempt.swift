/// What one forward POST came to: the receiver's answer, or why none came. Recorded as a delivery event.
public struct ForwardAttempt: Sendable, Equatable {
    /// The URL's host (lowercase; empty when the URL did not validate).
    public var host: String
    /// The HTTP status when the receiver answered.
    public var status: Int?
    /// The first bytes of the answer's body (at most `Forwarder.keptAnswerBytes`).
    public var answer: [UInt8]
    /// Why no answer came (`invalid url`, `invalid request`, `address refused`, `connect failed`, `timeout`, `tls`,
    /// `too large`, `transport`); nil when one did.
    public var error: String?
    /// Wall time of the attempt, from before validation to the end of the transfer.
    public var durationMs: Int

    public init(host: String, status: Int?, answer: [UInt8], error: String?, durationMs: Int) {
        self.host = host
        self.status = status
        self.answer = answer
        self.error = error
        self.durationMs = durationMs
    }

    /// A 2xx answer.
    public var succeeded: Bool { status.map { (200..<300).contains($0) } ?? false }
}
