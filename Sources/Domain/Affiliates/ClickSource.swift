/// How a click came about: an affiliate's link followed (`GET /a/{refCode}`), or the affiliate's code given at bind.
public enum ClickSource: String, Hashable, Sendable, CaseIterable {
    case link, code
}
