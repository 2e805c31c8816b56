@testable import API
@testable import Domain
@testable import HTTPServer

/// `headers`: the bytes as header lines (`Name: value`, one per line) as libmicrohttpd hands them to the server
/// (`Headers`), then the header values the server reads: `Content-Length`, `X-Request-Id`, `User-Agent`.
///
/// Properties: lookup ignores ASCII letter case and answers the first of `values(name)`; `set` leaves exactly one
/// field of that name and `remove` none, without touching other names; header sets that differ only in the case of
/// their names are equal; trimming a `Content-Length` value drops exactly the spaces and tabs at its ends; a request
/// id is 8–64 characters of `[A-Za-z0-9._-]`, the caller's own when it is one; a user agent names a platform
/// exactly when it contains `Android`, `iPhone`, `iPad` or `iPod`.
enum HeadersFuzz {
    static let target = FuzzTarget(name: "headers", maxLength: 2048, run: run)

    static func run(_ bytes: [UInt8]) {
        let pairs = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
            let value = line[colon...].dropFirst().drop { $0 == UInt8(ascii: " ") }
            return (text(line[..<colon]), text(value))
        }
        let headers = Headers(pairs)
        let names = Set(pairs.map(\.0)).union(["Content-Length", "X-Request-Id", "User-Agent"])
        for name in names { checkLookup(headers, name) }
        let shouting = Headers(pairs.map { (asciiUppercased($0.0), $0.1) })
        check(shouting == headers, "headers differing only in name case are not equal")
        if let length = headers["Content-Length"] { checkTrimming(length) }
        checkRequestID(headers["X-Request-Id"])
        if let agent = headers["User-Agent"] { checkUserAgent(agent) }
    }

    private static func checkLookup(_ headers: Headers, _ name: String) {
        let values = headers.values(name)
        check(headers[name] == values.first, "headers['\(name)'] is not the first of values('\(name)')")
        check(headers.values(asciiUppercased(name)) == values, "values('\(name)') depends on letter case")
        let matching = headers.pairs.filter { $0.0.lowercased() == name.lowercased() }.count
        check(values.count == matching, "values('\(name)') has \(values.count) of \(matching) fields")
        var changed = headers
        changed.set(name, "set")
        check(changed.values(name) == ["set"], "after set('\(name)'): \(changed.values(name))")
        check(changed.pairs.count == headers.pairs.count - matching + 1, "set('\(name)') touched other fields")
        changed.remove(name)
        check(changed[name] == nil && changed.pairs.count == headers.pairs.count - matching,
              "remove('\(name)') left \(changed.values(name)) or removed other fields")
    }

    private static func checkTrimming(_ value: String) {
        let trimmed = value[...].trimmingSpaces()
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        check(trimmed.first.map(isSpace) != true && trimmed.last.map(isSpace) != true, "'\(trimmed)' keeps spaces")
        let core = value.drop(while: isSpace)
        check(String(core.dropLast(core.reversed().prefix(while: isSpace).count)) == trimmed,
              "trimming '\(value)' gave '\(trimmed)'")
    }

    private static func checkRequestID(_ incoming: String?) {
        let id = RequestID.make(incoming: incoming)
        check((8...64).contains(id.utf8.count) && id.utf8.allSatisfy(allowed), "request id '\(id)'")
        if let incoming, (8...64).contains(incoming.utf8.count), incoming.utf8.allSatisfy(allowed) {
            check(id == incoming, "a well-formed X-Request-Id '\(incoming)' was replaced by '\(id)'")
        } else {
            check(id != incoming && id.utf8.count == 22, "a malformed X-Request-Id was kept or replaced by '\(id)'")
        }
    }

    private static func checkUserAgent(_ agent: String) {
        let named = ["Android", "iPhone", "iPad", "iPod"].contains { agent.contains($0) }
        check((DevicePlatform(userAgent: agent) != nil) == named, "user agent '\(agent)'")
    }

    /// The bytes of a request id: `[A-Za-z0-9._-]`.
    private static func allowed(_ byte: UInt8) -> Bool {
        ASCII.isLetterOrDigit(byte) || "._-".utf8.contains(byte)
    }

    /// `name` with `a`–`z` in uppercase and every other character unchanged.
    private static func asciiUppercased(_ name: String) -> String {
        String(decoding: name.utf8.map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }, as: UTF8.self)
    }
}
