/// One fuzz target: a name for `HANDOFF_FUZZ_TARGET` and `infra/fuzz`, the longest input worth trying, and the
/// function that runs one input and stops the process (through `check`) when a property does not hold.
struct FuzzTarget: Sendable {
    /// The selector, e.g. `json-body`; also the folder of its seed corpus under `Tests/Fuzz/corpus/`.
    let name: String
    /// libFuzzer's `-max_len` for this target: the largest input the parser can meet at the edge, or a bit more.
    let maxLength: Int
    /// Runs one input.
    let run: @Sendable ([UInt8]) -> Void

    /// Every target, in the order `infra/fuzz` runs them.
    static let all: [FuzzTarget] = [
        JSONBodyFuzz.target, RequestTargetFuzz.target, HeadersFuzz.target, ForwardedForFuzz.target,
        AcceptLanguageFuzz.target, SecretKeyFuzz.target, PassFuzz.target, PageTokenFuzz.target, CodesFuzz.target,
        TrackerLinkFuzz.target, EmailFuzz.target, PaymentFieldsFuzz.target, IdentifiersFuzz.target,
        ProjectSettingsFuzz.target, FingerprintFieldsFuzz.target, AppleJWSFuzz.target,
        PubSubPushFuzz.target, RevenueCatFuzz.target,
        ForwardURLFuzz.target, IngestBodyFuzz.target,
    ]
}
