import Commands
import Crypto
import Domain
import Foundation
import Service
import Testing

/// The documented steps of a pass-key rotation (docs/operations.md), as `HANDOFF_PASS_KEYS` values read by
/// `Configuration`, which is how the running service gets its `PassKeys`.
@Suite struct KeyRotationPassKeyTests {
    let old = Base64URL.encode(SecureRandom.bytes(32))
    let new = Base64URL.encode(SecureRandom.bytes(32))
    let now = Date(timeIntervalSince1970: 1_900_000_000)
    let guid = BuyerGuid(randomBytes: [UInt8](repeating: 7, count: 16))
    let project = ProjectID(randomBytes: [UInt8](repeating: 9, count: 16))

    /// The pass keys a process started with `HANDOFF_PASS_KEYS=value` uses.
    func keys(_ value: String) throws -> PassKeys {
        let configuration = try Configuration(environment: [
            "HANDOFF_MASTER_KEY": Base64URL.encode(SecureRandom.bytes(32)),
            "HANDOFF_LOOKUP_PEPPER": Base64URL.encode(SecureRandom.bytes(32)), "HANDOFF_PASS_KEYS": value,
        ])
        return try #require(configuration.identity).passKeys
    }

    func issue(_ keys: PassKeys, at time: Date) -> String {
        Pass.issue(guid: guid, projectID: project, now: time, keys: keys)
    }

    func verify(_ pass: String, _ keys: PassKeys, at time: Date) -> PassVerification {
        Pass.verify(pass, now: time, keys: keys)
    }

    @Test func eachStepKeepsEveryLivePassValidAndOnlyTheLastOneRetiresTheOldKey() throws {
        let before = try keys("k1:\(old)")
        let oldPass = issue(before, at: now)

        // Step 1 (rolling restart): the new key is appended; the old one still signs, both verify.
        let known = try keys("k1:\(old),k2:\(new)")
        #expect(issue(known, at: now).contains(".k1."))
        #expect(verify(oldPass, known, at: now) != .invalid(.unknownKey))
        // Step 2: the new key signs. Passes of either key verify here and on a process still at step 1.
        let signing = try keys("k2:\(new),k1:\(old)")
        let newPass = issue(signing, at: now)
        #expect(newPass.contains(".k2."))
        for keys in [known, signing] {
            #expect(verify(oldPass, keys, at: now.addingTimeInterval(3600)).isValid)
            #expect(verify(newPass, keys, at: now.addingTimeInterval(3600)).isValid)
        }
        // Without step 1, a process still at the old configuration refuses the new passes.
        #expect(verify(newPass, before, at: now) == .invalid(.unknownKey))

        // Step 3, after a pass lifetime: the old key is removed; its passes had expired anyway.
        let later = now.addingTimeInterval(Pass.lifetime)
        #expect(verify(oldPass, signing, at: later) == .invalid(.expired))
        let after = try keys("k2:\(new)")
        #expect(verify(oldPass, after, at: now) == .invalid(.unknownKey))
        #expect(verify(newPass, after, at: now.addingTimeInterval(3600)).isValid)
    }

    @Test func aKeyIDReusedForAnotherKeyMakesTheOldPassesTampered() throws {
        let oldPass = issue(try keys("k1:\(old)"), at: now)
        #expect(verify(oldPass, try keys("k1:\(new)"), at: now) == .invalid(.tampered))
    }
}

private extension PassVerification {
    var isValid: Bool {
        if case .valid = self { return true }
        return false
    }
}
