import Domain
import Foundation
import Testing

/// The rules of surfaces: which app may have one, which secrets verify when, the headers' shape and the timestamp
/// window (issue 15).
struct SurfaceRulesTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let seconds: Int64 = 1_800_000_000

    /// The refusal of a `Result<Void, _>`, nil for success.
    static func refusal<Failure>(_ result: Result<Void, Failure>) -> Failure? {
        if case .failure(let failure) = result { return failure }
        return nil
    }

    @Test func onlyAnExistingIOSAppHasSurfaces() {
        #expect(Self.refusal(SurfaceCreation.decide(app: AppDecidersTests.state(.ios))) == nil)
        #expect(Self.refusal(SurfaceCreation.decide(app: nil, field: "--app"))
            == Refusal(kind: .notFound, code: .notFound, field: "--app", message: "no app has this id"))
        #expect(Self.refusal(SurfaceCreation.decide(app: AppDecidersTests.state(.android)))?.code
            == .appPlatformConflict)
    }

    @Test func theReplacedSecretVerifiesUntilItsGraceEndsAndNotAfter() {
        let secrets = SurfaceSecrets(current: "new", previous: "old", previousValidUntil: Self.now)
        #expect(secrets.verifying(at: Self.now.addingTimeInterval(-1)) == ["new", "old"])
        #expect(secrets.verifying(at: Self.now) == ["new"])
        #expect(SurfaceSecrets(current: "only").verifying(at: Self.now) == ["only"])
    }

    @Test func aRotationsGraceIsItsHoursFromNowAndAnUnknownSurfaceIsNotFound() {
        #expect(SurfaceSecretRotation.decide(surfaceExists: true, graceHours: 24, now: Self.now)
            == .success(Self.now.addingTimeInterval(86_400)))
        #expect(SurfaceSecretRotation.decide(surfaceExists: true, graceHours: 0, now: Self.now) == .success(Self.now))
        #expect(SurfaceSecretRotation.decide(surfaceExists: false, graceHours: 24, now: Self.now)
            == .failure(.notFound("no surface has this id", field: "surfaceId")))
        #expect(SurfaceSecretRotation.parseGraceHours("0") == .success(0))
        #expect(SurfaceSecretRotation.parseGraceHours("720") == .success(720))
        for bad in ["721", "-1", "", "1.5", " 2", "+3", "00001"] {
            #expect(SurfaceSecretRotation.parseGraceHours(bad, field: "--grace-hours").map { _ in 0 }
                == .failure(FieldRefusal(field: "--grace-hours", code: .graceHoursFormat,
                                         rule: "be a whole number of hours from 0 to 720")), "\(bad)")
        }
    }

    @Test func theWindowTakes72HoursBackAnd5MinutesAheadBothEdgesIncluded() {
        let window = ForwardedTimestampWindow.standard
        #expect(Self.refusal(window.check(Self.seconds - 72 * 3600, now: Self.now)) == nil)
        #expect(Self.refusal(window.check(Self.seconds - 72 * 3600 - 1, now: Self.now))
            == .timestampTooOld(maxAgeHours: 72))
        #expect(Self.refusal(window.check(Self.seconds + 300, now: Self.now)) == nil)
        #expect(Self.refusal(window.check(Self.seconds + 301, now: Self.now))
            == .timestampInFuture(maxAheadSeconds: 300))
        // A fraction of a second on the clock does not move the edges.
        #expect(Self.refusal(window.check(Self.seconds + 300, now: Self.now.addingTimeInterval(0.9))) == nil)
        #expect(Self.refusal(ForwardedTimestampWindow(maxAgeHours: 1).check(Self.seconds - 3601, now: Self.now))
            == .timestampTooOld(maxAgeHours: 1))
    }

    @Test func theHeadersAreUnixSecondsAndSha256HexAndTheMessageIsTimestampDotBody() throws {
        let hex = String(repeating: "aB", count: 32)
        let parsed = try ForwardedSignature.parse(timestamp: "001800000000", signature: "sha256=" + hex).get()
        #expect(parsed.timestamp == 1_800_000_000 && parsed.hexDigest == hex.lowercased())
        #expect(parsed.signedMessage(body: Array("{}".utf8)) == Array("001800000000.{}".utf8))
        let refusals: [(String?, String?, ForwardedRefusal)] = [
            (nil, "sha256=" + hex, .missingTimestamp), ("", "sha256=" + hex, .malformedTimestamp),
            ("-5", "sha256=" + hex, .malformedTimestamp), ("1e9", "sha256=" + hex, .malformedTimestamp),
            ("1234567890123", "sha256=" + hex, .malformedTimestamp), ("1", nil, .missingSignature),
            ("1", hex, .malformedSignature), ("1", "SHA256=" + hex, .malformedSignature),
            ("1", "sha256=" + hex.dropLast(), .malformedSignature), ("1", "sha256=" + hex + " ", .malformedSignature),
            ("1", "sha256=" + String(repeating: "g", count: 64), .malformedSignature),
        ]
        for (timestamp, signature, refusal) in refusals {
            #expect(ForwardedSignature.parse(timestamp: timestamp, signature: signature) == .failure(refusal))
        }
    }

    @Test func surfaceIdsAndSecretsHaveOneSpellingAndTheForwardingURLIsOnTheBase() throws {
        let id = try SurfaceID.parse("6F1C2E3A-9B4D-4E5F-8A7B-0C1D2E3F4A5B").get()
        #expect(id.description == "6f1c2e3a-9b4d-4e5f-8a7b-0c1d2e3f4a5b")
        #expect(id.forwardingURL(base: "https://h.example.com/x")
            == "https://h.example.com/x/v1/app-store/assn/6f1c2e3a-9b4d-4e5f-8a7b-0c1d2e3f4a5b")
        #expect(SurfaceID.parse("6f1c2e3a9b4d4e5f8a7b0c1d2e3f4a5b").map(\.description)
            == .failure(FieldRefusal(field: "surfaceId", code: .surfaceIDFormat,
                                     rule: "be a UUID in canonical text form")))
        let secret = ForwardingSecret(randomBytes: Array(repeating: 0xFF, count: 32))
        #expect(secret.text == "fwd_" + String(repeating: "_", count: 42) + "8")
        #expect(secret.key == Array(secret.text.utf8))
    }
}
