@testable import Domain
@testable import EventStore
import Foundation
@testable import HTTPServer

/// `email`: the bytes as a buyer's e-mail address (`email` of the users, payment and recovery bodies,
/// `EmailAddress.parse`), then as the lookup key (`LookupHash.normalizedEmail`) and in the paywall link
/// (`HandoffLinks.paywallURL`).
///
/// Properties: an accepted address is kept exactly; has 3–254 Unicode scalars (as JSON Schema counts), exactly one
/// `@`, a local part of 1–64 scalars and a domain of two or more non-empty labels; contains no whitespace, control
/// or format character (no CR or LF for a mail header, no NUL for a C string); never prints itself (`description`); normalizing it twice
/// changes nothing; and in a paywall link it reads back exactly through the server's own query parser.
enum EmailFuzz {
    static let target = FuzzTarget(name: "email", maxLength: 512, run: run)

    static let paywall: PaywallURL = {
        guard case .success(let url) = PaywallURL.parse("https://pay.example.com/p?plan=a#top") else {
            fatalError("the fixed paywall URL does not parse")
        }
        return url
    }()

    static func run(_ bytes: [UInt8]) {
        let candidate = text(bytes)
        guard case .success(let email) = EmailAddress.parse(candidate) else { return }
        check(email.text == candidate, "'\(candidate)' kept as '\(email.text)'")
        let utf8 = Array(email.text.utf8)
        let scalars = email.text.unicodeScalars.count
        check((3...EmailAddress.maxLength).contains(scalars), "accepted address of \(scalars) scalars")
        check(!utf8.contains { $0 < 0x20 || $0 == 0x7F }, "accepted address with an ASCII control byte")
        check(email.text.unicodeScalars.allSatisfy { scalar in
            !scalar.properties.isWhitespace && scalar.properties.generalCategory != .control
                && scalar.properties.generalCategory != .format
        }, "accepted address with whitespace, a control or a format character")
        // By Unicode scalars, as the parser cuts: a `.` or `@` followed by a combining mark is still a separator.
        let parts = email.text.unicodeScalars.split(separator: "@", omittingEmptySubsequences: false)
        check(parts.count == 2 && (1...EmailAddress.maxLocalLength).contains(parts[0].count),
              "accepted address parts \(parts.map { String(String.UnicodeScalarView($0)) })")
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        check(labels.count >= 2 && labels.allSatisfy { !$0.isEmpty },
              "accepted domain '\(String(String.UnicodeScalarView(parts[1])))'")
        check(!email.description.contains(email.text), "an address prints itself")
        let normalized = LookupHash.normalizedEmail(email.text)
        check(LookupHash.normalizedEmail(String(decoding: normalized, as: UTF8.self)) == normalized,
              "normalizing '\(email.text)' twice changes it")
        let link = HandoffLinks.paywallURL(base: paywall, pass: "v1.pass", email: email.text)
        let query = RequestTarget(raw: Array(link.utf8)).query
        check(query["email"] == email.text && query["pass"] == "v1.pass" && query["plan"] == "a",
              "'\(link)' reads back as \(query)")
    }
}
