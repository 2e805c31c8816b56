/// Stops the process when a property does not hold: libFuzzer then reports the input as a crash and saves it.
///
/// `message` should name the property and show the values that broke it (never needed in the happy path, so it is
/// only built on failure).
func check(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    if !condition() { fatalError("property does not hold: \(message())", file: file, line: line) }
}

/// How the HTTP layer turns outside bytes into text: UTF-8, invalid sequences replaced by U+FFFD.
func text(_ bytes: some Collection<UInt8>) -> String {
    String(decoding: bytes, as: UTF8.self)
}

/// The input cut at every 0x00 byte: several independent fields from one input (a NUL never reaches the parsers
/// through these fields, which is fine: each target also feeds the whole input to the parsers as one text).
func fields(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    bytes.split(separator: 0, omittingEmptySubsequences: false)
}

/// `count` bytes taken from `bytes` cyclically from `offset` (zeros when `bytes` is empty): material for values
/// that need a fixed size, such as random bytes of a code or a UUID.
func material(_ bytes: [UInt8], count: Int, offset: Int = 0) -> [UInt8] {
    guard !bytes.isEmpty else { return [UInt8](repeating: 0, count: count) }
    return (0..<count).map { bytes[(offset + $0) % bytes.count] }
}
