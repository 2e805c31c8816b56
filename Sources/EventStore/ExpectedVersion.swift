/// What the appender believes the stream's version is (the number of events in it).
public enum ExpectedVersion: Sendable, Equatable, CustomStringConvertible {
    /// No check: append after whatever is there (use for streams with a single writer, e.g. an org's audit trail).
    case any
    /// The stream must not exist yet (version 0).
    case noStream
    /// The stream's last `stream_version` must be exactly this (1 or more).
    case exactly(Int)

    /// The version the check demands, or nil for `.any`.
    var required: Int? {
        switch self {
        case .any: nil
        case .noStream: 0
        case .exactly(let version): version
        }
    }

    public var description: String {
        switch self {
        case .any: "any"
        case .noStream: "no stream"
        case .exactly(let version): String(version)
        }
    }
}
