/// The 32 symbols of handoff codes and install tokens: `23456789ABCDEFGHJKLMNPQRSTUVWXYZ`.
///
/// Digits 2–9 and the letters without `I` and `O`: no `0`/`O` and no `1`/`I` pairs can be confused, and `L` stays
/// because both its look-alikes (`1`, `I`) are gone. 32 symbols make 5 bits per character, so 5 random bytes give
/// 8 characters with no bias. Uppercase only: the server compares exactly (a lowercase code is a 404).
enum CodeAlphabet {
    static let symbols = Array("23456789ABCDEFGHJKLMNPQRSTUVWXYZ".utf8)
    /// The symbols as a set, for checks and patterns.
    static let characters = ASCIISet("23456789ABCDEFGHJKLMNPQRSTUVWXYZ")
    /// Characters in a code.
    static let length = 8
    /// Random bytes that make one code (8 × 5 bits).
    static let randomByteCount = 5

    /// The 8 characters spelled by 5 random bytes, most significant bits first.
    static func encode(randomBytes: [UInt8]) -> String {
        precondition(randomBytes.count == randomByteCount, "CodeAlphabet: needs \(randomByteCount) random bytes")
        let value = randomBytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let characters = (0..<length).map { index in symbols[Int(value >> UInt64(5 * (length - 1 - index)) & 31)] }
        return String(decoding: characters, as: UTF8.self)
    }

    /// True when `text` is exactly 8 characters of the alphabet.
    static func isCode(_ text: String) -> Bool {
        text.utf8.count == length && characters.containsAll(text)
    }
}
