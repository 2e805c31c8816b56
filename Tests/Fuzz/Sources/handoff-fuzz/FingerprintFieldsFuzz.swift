import Domain

/// `fingerprint-fields`: the bytes as the fields of a fingerprint and of a resolve-by-fingerprint probe
/// (`ScreenSize`, `FingerprintFields`, `DevicePlatform`).
///
/// Properties: a screen size is two sides of 1–20000 without leading zeros in either order, prints as
/// `<short>x<long>` and parses from its print to itself (so `852x393` and `393x852` are one screen); time zones,
/// language tags, OS versions and bundle ids are kept as given and stay inside their character sets and lengths;
/// the primary language is lowercase, without `-` or `_`; a platform is exactly `ios` or `android`.
enum FingerprintFieldsFuzz {
    static let target = FuzzTarget(name: "fingerprint-fields", maxLength: 512, run: run)

    static func run(_ bytes: [UInt8]) {
        let candidate = text(bytes)
        if case .success(let screen) = ScreenSize.parse(candidate) {
            check(screen.short <= screen.long && screen.short >= 1 && screen.long <= ScreenSize.maxSide,
                  "screen '\(candidate)' read as \(screen)")
            check((try? ScreenSize.parse(screen.text).get()) == screen, "screen \(screen) does not parse back")
            let sides = candidate.split(separator: "x").map(String.init)
            check(sides.count == 2 && Set(sides) == Set(["\(screen.short)", "\(screen.long)"]),
                  "screen '\(candidate)' read as \(screen)")
        }
        let fields: [(String, (String) -> String?, Int, String)] = [
            ("timezone", { try? FingerprintFields.timezone($0).get() }, 64, "/_+-"),
            ("language", { try? FingerprintFields.language($0).get() }, 35, "-_"),
            ("bundleId", { try? FingerprintFields.bundleID($0).get() }, 255, ".-_"),
        ]
        for (name, parse, maximum, extra) in fields {
            guard let value = parse(candidate) else { continue }
            check(value == candidate && (1...maximum).contains(value.utf8.count)
                      && value.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic
                          || ("0"..."9").contains($0) || extra.unicodeScalars.contains($0)) },
                  "\(name) '\(candidate)' accepted as '\(value)'")
        }
        if let os = try? FingerprintFields.osVersion(candidate).get() {
            check(os == candidate && os.utf8.allSatisfy { (0x21...0x7E).contains($0) }, "osVersion '\(os)'")
        }
        let primary = FingerprintFields.primaryLanguage(candidate)
        check(primary == primary.lowercased() && !primary.contains { $0 == "-" || $0 == "_" },
              "primary language '\(primary)' of '\(candidate)'")
        let platform = try? DevicePlatform.parse(candidate).get()
        check(platform?.rawValue == (candidate == "ios" || candidate == "android" ? candidate : nil),
              "platform '\(candidate)'")
    }
}
