import Commands
import Crypto
import Domain
import Foundation
import Synchronization

// bench/store's load generator (not part of the service): verifies App Store notifications — DID_RENEW with a nested
// signedTransactionInfo and signedRenewalInfo, three ES256 signatures each — with AppleSignedDataVerifier from
// THREADS threads for SECONDS seconds; prints "notifications/s <n>" for a verifier that remembers verified chains (as
// the service runs it) and "uncached/s <n>" for a fresh verifier per notification (every chain verified in full).
//
//   handoff-store-bench <root.pem> <leaf.pem> <intermediate.pem> <leaf.key> <seconds> [threads=1] [distinct=1000]
//
// The chain comes from bench/store (made with the openssl command line like Apple's: P-384 root and intermediate, a
// P-256 leaf). `distinct` notifications (each its own UUID and transaction id) are signed before the clock starts.
let arguments = CommandLine.arguments
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}
guard (6...8).contains(arguments.count), let seconds = Double(arguments[5]), seconds > 0 else {
    fail("usage: handoff-store-bench <root.pem> <leaf.pem> <intermediate.pem> <leaf.key> <seconds> [threads] "
        + "[distinct]")
}
let threads = arguments.count > 6 ? Int(arguments[6]) ?? 0 : 1
let distinct = arguments.count > 7 ? Int(arguments[7]) ?? 0 : 1000
guard threads > 0, distinct > 0 else { fail("threads and distinct must be positive integers") }

func file(_ path: String) -> String {
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    return String(decoding: data, as: UTF8.self)
}
func certificate(_ path: String) -> X509Certificate {
    guard let certificate = X509Certificate.certificates(pem: file(path)).first else {
        fail("no certificate in \(path)")
    }
    return certificate
}
let root = certificate(arguments[1])
let chain = [certificate(arguments[2]), certificate(arguments[3]), root].map { Data($0.der).base64EncodedString() }
guard let key = ECDSAPrivateKey(pem: file(arguments[4])) else { fail("not a P-256 key: \(arguments[4])") }

func sign(_ payload: [String: Any]) -> String {
    let header = try! JSONSerialization.data(withJSONObject: ["alg": "ES256", "x5c": chain], options: .sortedKeys)
    let body = try! JSONSerialization.data(withJSONObject: payload, options: .sortedKeys)
    let input = Base64URL.encode([UInt8](header)) + "." + Base64URL.encode([UInt8](body))
    return input + "." + Base64URL.encode(key.signature(for: Array(input.utf8)))
}
let signedDate = Int64(Date().timeIntervalSince1970 * 1000)
let notifications: [String] = (0..<distinct).map { index in
    let transaction: [String: Any] = [
        "transactionId": "\(2_000_000_000 + index)", "originalTransactionId": "2000000000", "bundleId": "com.example",
        "productId": "pro.monthly", "purchaseDate": signedDate, "expiresDate": signedDate + 2_592_000_000,
        "type": "Auto-Renewable Subscription", "appAccountToken": UUID().uuidString.lowercased(),
        "environment": "Production", "currency": "USD", "price": 10_990, "signedDate": signedDate,
    ]
    let renewal: [String: Any] = [
        "originalTransactionId": "2000000000", "autoRenewProductId": "pro.monthly", "autoRenewStatus": 1,
        "environment": "Production", "signedDate": signedDate,
    ]
    return sign([
        "notificationType": "DID_RENEW", "notificationUUID": UUID().uuidString.lowercased(), "version": "2.0",
        "signedDate": signedDate,
        "data": ["appAppleId": 1234, "bundleId": "com.example", "environment": "Production",
                 "signedTransactionInfo": sign(transaction), "signedRenewalInfo": sign(renewal)] as [String: Any],
    ])
}
let now = Date()
let sharedVerifier = AppleSignedDataVerifier(roots: [root])
guard case .success(let sample) = sharedVerifier.verifyNotification(
    signedPayload: notifications[0], bundleId: "com.example", appAppleId: 1234, now: now),
    sample.transaction != nil, sample.renewalInfo != nil else {
    fail("the sample notification does not verify")
}

/// Verifies notifications round-robin on `threads` threads for `seconds`; returns (verified, refused, elapsed).
func run(freshVerifierEach: Bool) -> (Int, Int, Double) {
    let verified = Atomic<Int>(0)
    let refused = Atomic<Int>(0)
    let done = DispatchSemaphore(value: 0)
    let start = Date()
    let end = start.addingTimeInterval(seconds)
    for thread in 0..<threads {
        Thread {
            var index = thread * 7919 % distinct
            var ok = 0
            var bad = 0
            while Date() < end {
                let verifier = freshVerifierEach ? AppleSignedDataVerifier(roots: [root]) : sharedVerifier
                let result = verifier.verifyNotification(signedPayload: notifications[index], bundleId: "com.example",
                                                         appAppleId: 1234, now: now)
                if case .success = result { ok += 1 } else { bad += 1 }
                index = (index + 1) % distinct
            }
            verified.add(ok, ordering: .relaxed)
            refused.add(bad, ordering: .relaxed)
            done.signal()
        }.start()
    }
    for _ in 0..<threads { done.wait() }
    return (verified.load(ordering: .relaxed), refused.load(ordering: .relaxed), Date().timeIntervalSince(start))
}

let (cached, cachedRefused, cachedSeconds) = run(freshVerifierEach: false)
let (uncached, uncachedRefused, uncachedSeconds) = run(freshVerifierEach: true)
print("threads \(threads) seconds \(seconds) distinct \(distinct) bytes \(notifications[0].utf8.count) "
    + "refused \(cachedRefused + uncachedRefused)")
print("notifications/s \(String(format: "%.0f", Double(cached) / cachedSeconds))")
print("uncached/s \(String(format: "%.0f", Double(uncached) / uncachedSeconds))")
exit(cachedRefused + uncachedRefused == 0 ? 0 : 1)
