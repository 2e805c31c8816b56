import Commands
import Crypto
import Foundation

// bench/store's helper (not part of the service), two modes over the chain bench/store made with the openssl command
// line (P-384 root and intermediate, P-256 leaf, like Apple's):
//
//   handoff-store-bench verify <root.pem> <leaf.pem> <intermediate.pem> <leaf.key> <seconds> [threads=1]
//       verifies DID_RENEW notifications (nested signedTransactionInfo and signedRenewalInfo: three ES256 JWS) with
//       AppleSignedDataVerifier in process, no HTTP; prints "notifications/s <n>" for a verifier that remembers
//       verified chains (as the service runs it) and "uncached/s <n>" for a fresh verifier per notification.
//   handoff-store-bench sign <root.pem> <leaf.pem> <intermediate.pem> <leaf.key> <count> <out-file>
//       writes <count> request bodies {"signedPayload":"<JWS>"}, one per line, each its own notificationUUID, for
//       bench/store's HTTP run; checks that the first verifies; prints "bytes <n>" (of one body).
let arguments = CommandLine.arguments
let usage = "usage: handoff-store-bench verify <root.pem> <leaf.pem> <intermediate.pem> <leaf.key> <seconds> "
    + "[threads]\n       handoff-store-bench sign <root.pem> <leaf.pem> <intermediate.pem> <leaf.key> <count> "
    + "<out-file>"
guard arguments.count >= 7, ["verify", "sign"].contains(arguments[1]) else { fail(usage) }
let chain = BenchChain(root: arguments[2], leaf: arguments[3], intermediate: arguments[4], key: arguments[5])
let signedDate = Int64(Date().timeIntervalSince1970 * 1000)

func checkFirst(_ jws: String) {
    guard case .success(let sample) = AppleSignedDataVerifier(roots: [chain.root]).verifyNotification(
        signedPayload: jws, bundleId: "com.example", appAppleId: 1234, now: Date()),
        sample.transaction != nil, sample.renewalInfo != nil else {
        fail("the first notification does not verify")
    }
}

if arguments[1] == "sign" {
    guard arguments.count == 8, let count = Int(arguments[6]), count > 0 else { fail(usage) }
    guard FileManager.default.createFile(atPath: arguments[7], contents: nil),
          let out = FileHandle(forWritingAtPath: arguments[7]) else { fail("cannot write \(arguments[7])") }
    var first = ""
    var chunk = ""
    for index in 0..<count {
        let jws = chain.didRenew(index: index, signedDate: signedDate)
        if index == 0 {
            checkFirst(jws)
            first = jws
        }
        chunk += #"{"signedPayload":"\#(jws)"}"# + "\n"
        if chunk.utf8.count > 1 << 20 {
            out.write(Data(chunk.utf8))
            chunk = ""
        }
    }
    out.write(Data(chunk.utf8))
    try? out.close()
    print("bytes \(#"{"signedPayload":"\#(first)"}"#.utf8.count)")
    exit(0)
}

guard (7...8).contains(arguments.count), let seconds = Double(arguments[6]), seconds > 0 else { fail(usage) }
let threads = arguments.count > 7 ? Int(arguments[7]) ?? 0 : 1
guard threads > 0 else { fail("threads must be a positive integer") }
// 1000 distinct notifications, each its own UUID and transaction id, signed before the clock starts.
let notifications = (0..<1000).map { chain.didRenew(index: $0, signedDate: signedDate) }
checkFirst(notifications[0])
let run = VerifyRun(notifications: notifications, root: chain.root, threads: threads, seconds: seconds)
let cached = run.run(freshVerifierEach: false)
let uncached = run.run(freshVerifierEach: true)
print("threads \(threads) seconds \(seconds) distinct \(notifications.count) bytes \(notifications[0].utf8.count) "
    + "refused \(cached.refused + uncached.refused)")
print("notifications/s \(String(format: "%.0f", Double(cached.verified) / cached.elapsed))")
print("uncached/s \(String(format: "%.0f", Double(uncached.verified) / uncached.elapsed))")
exit(cached.refused + uncached.refused == 0 ? 0 : 1)
