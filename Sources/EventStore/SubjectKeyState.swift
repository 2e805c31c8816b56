/// What `SubjectKeys` knows about a subject's data key: usable, or destroyed for good.
public enum SubjectKeyState: Sendable, CustomStringConvertible {
    /// The key exists; personal data sealed under it can be opened.
    case live(SubjectKey)
    /// The key was destroyed (`SubjectKeys.destroy`): the subject's personal data reads back as erased.
    case destroyed

    /// The key, or nil when destroyed.
    public var key: SubjectKey? {
        if case .live(let key) = self { return key }
        return nil
    }

    /// `live` or `destroyed`, never the key bytes.
    public var description: String {
        switch self {
        case .live: "live"
        case .destroyed: "destroyed"
        }
    }
}
