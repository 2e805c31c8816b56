import Domain
/// What opening a sealed personal value gave: the value, erased (its key was destroyed), or invalid.
public enum Reveal: Sendable, Equatable {
    /// The plaintext.
    case value(String)
    /// The subject's key was destroyed: the value is gone for good. Show it as erased; it is not an error.
    case erased
    /// The value does not open: altered, malformed, sealed for another org, subject or field, or under a key
    /// that no longer matches. Treat it as corrupt data.
    case invalid
}
