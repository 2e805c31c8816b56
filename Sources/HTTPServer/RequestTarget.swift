/// The request-target of a request line split into a decoded path and query.
struct RequestTarget: Sendable, Equatable {
    /// Percent-decoded path (`%2F` becomes `/`; `+` stays).
    var path: String
    /// The query string as sent, without `?`.
    var rawQuery: String
    /// Decoded query parameters; for repeated names the last value wins.
    var query: [String: String]

    /// Splits a raw request-target (`/a%20b?x=1&y=two+words`); absolute-form targets lose scheme and authority
    /// (which ends at the first `/`, `?` or `#`, RFC 3986 §3.2), so `http://host?x=1` is `/?x=1`.
    init(raw: [UInt8]) {
        var target = raw[...]
        for scheme in RequestTarget.schemes where target.first != UInt8(ascii: "/") && target.starts(with: scheme) {
            target = target.dropFirst(scheme.count)
            target = target[(target.firstIndex(where: Self.endsAuthority) ?? target.endIndex)...]
            if target.first != UInt8(ascii: "/") { target = ([UInt8(ascii: "/")] + target)[...] }
        }
        if let hash = target.firstIndex(of: UInt8(ascii: "#")) { target = target[..<hash] }
        let question = target.firstIndex(of: UInt8(ascii: "?"))
        let rawPath = question.map { target[..<$0] } ?? target
        let rawQueryBytes = question.map { target[target.index(after: $0)...] } ?? target[target.endIndex...]
        path = Self.text(rawPath, plusIsSpace: false)
        rawQuery = String(decoding: rawQueryBytes, as: UTF8.self)
        var query: [String: String] = [:]
        var rest = rawQueryBytes
        while !rest.isEmpty {
            let end = rest.firstIndex(of: UInt8(ascii: "&")) ?? rest.endIndex
            let pair = rest[..<end]
            rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
            if pair.isEmpty { continue }
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            let name = equals.map { pair[..<$0] } ?? pair
            let value = equals.map { pair[pair.index(after: $0)...] } ?? pair[pair.endIndex...]
            query[Self.text(name, plusIsSpace: true)] = Self.text(value, plusIsSpace: true)
        }
        self.query = query
    }

    /// The absolute-form prefixes taken off a target (`GET http://host/path`); an origin-form target (`/path`, nearly
    /// every request) is never compared with them.
    private static let schemes: [[UInt8]] = [Array("http://".utf8), Array("https://".utf8)]

    /// The decoded text of `bytes`; bytes with nothing to decode (nearly every path and query) become the string
    /// directly, without a decoded copy.
    private static func text(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool) -> String {
        let needsDecoding = bytes.contains { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }
        return String(decoding: needsDecoding ? percentDecode(bytes, plusIsSpace: plusIsSpace)[...] : bytes,
                      as: UTF8.self)
    }

    /// Replaces `%XX` by its byte (and `+` by a space when asked); malformed escapes stay as written.
    static func percentDecode(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool) -> [UInt8] {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.endIndex,
               let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                decoded.append(high << 4 | low)
                index += 3
                continue
            }
            decoded.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return decoded
    }

    private static func endsAuthority(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
