import Commands
import Crypto
import Foundation
import Synchronization

/// Verifies notifications with `AppleSignedDataVerifier` round-robin on `threads` threads for `seconds`, in process
/// (no HTTP, no database): the ceiling the HTTP path can reach.
struct VerifyRun {
    let notifications: [String]
    let root: X509Certificate
    let threads: Int
    let seconds: Double
    let now = Date()

    /// Verified and refused counts and the elapsed seconds; `freshVerifierEach` verifies every chain in full.
    func run(freshVerifierEach: Bool) -> (verified: Int, refused: Int, elapsed: Double) {
        let shared = AppleSignedDataVerifier(roots: [root])
        let verified = Atomic<Int>(0)
        let refused = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
        let start = Date()
        let end = start.addingTimeInterval(seconds)
        for thread in 0..<threads {
            Thread { [notifications, root, now] in
                var index = thread * 7919 % notifications.count
                var ok = 0
                var bad = 0
                while Date() < end {
                    let verifier = freshVerifierEach ? AppleSignedDataVerifier(roots: [root]) : shared
                    let result = verifier.verifyNotification(signedPayload: notifications[index],
                                                             bundleId: "com.example", appAppleId: 1234, now: now)
                    if case .success = result { ok += 1 } else { bad += 1 }
                    index = (index + 1) % notifications.count
                }
                verified.add(ok, ordering: .relaxed)
                refused.add(bad, ordering: .relaxed)
                done.signal()
            }.start()
        }
        for _ in 0..<threads { done.wait() }
        return (verified.load(ordering: .relaxed), refused.load(ordering: .relaxed), Date().timeIntervalSince(start))
    }
}
