import Crypto
import Synchronization

/// Certificate chains of App Store JWS that already verified, so that a notification does not repeat two chain
/// signature checks for each of its (up to three) JWS: the App Store signs with very few leaves at a time.
///
/// Keyed by the exact `x5c[0]` and `x5c[1]` text. An entry holds the leaf's key and the window in which every
/// certificate of the verified chain is valid (`notBefore` ≤ t < `notAfter`, as OpenSSL judges); a signing time
/// outside the window is not refused here but verified again in full. Only chains that verified are remembered, so
/// a sender without one cannot fill the table; at `capacity` it starts over.
final class AppleVerifiedChains: Sendable {
    /// The most chains remembered.
    static let capacity = 64

    private struct Entry: Sendable {
        let leafKey: ECDSAPublicKey
        let validFrom: Int64
        let validUntil: Int64
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// The leaf key of the chain `leaf`/`intermediate` when it verified before and `time` (seconds since 1970) is
    /// inside its window.
    func leafKey(leaf: String, intermediate: String, at time: Int64) -> ECDSAPublicKey? {
        let key = leaf + "." + intermediate
        return entries.withLock { entries in
            guard let entry = entries[key], entry.validFrom <= time, time < entry.validUntil else { return nil }
            return entry.leafKey
        }
    }

    /// Remembers a verified `chain` (leaf first, root last) under the `x5c` texts it came from.
    func remember(leaf: String, intermediate: String, chain: [X509Certificate], leafKey: ECDSAPublicKey) {
        let starts = chain.compactMap(\.notBefore)
        let ends = chain.compactMap(\.notAfter)
        guard starts.count == chain.count, ends.count == chain.count, let from = starts.max(),
              let until = ends.min() else { return }
        let entry = Entry(leafKey: leafKey, validFrom: from, validUntil: until)
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[leaf + "." + intermediate] = entry
        }
    }
}
