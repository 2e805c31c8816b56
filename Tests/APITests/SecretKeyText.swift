import Domain

/// A well-formed key that no project has.
enum SecretKeyText {
    static func fresh() -> String {
        Domain.SecretKey(randomBytes: (0..<32).map { _ in UInt8.random(in: 0...255) }).text
    }
}
