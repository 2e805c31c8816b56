import Domain
import Testing

/// Inputs the libFuzzer targets found (Tests/Fuzz, docs/fuzzing.md "Findings so far"), kept as regression tests.
@Suite struct FuzzFindingsTests {
    static let label63 = String(repeating: "a", count: 63)

    /// `forward-url`, input `https://aaaa…a(72)com/`: the grammar took a host label of more than 63 characters (and a
    /// host of more than 253), which the send-time check refuses as malformed — a destination accepted when set and
    /// never sent. The grammar now has DNS's limits too.
    @Test func aForwardURLTheGrammarTakesIsOneTheSendTimeCheckTakes() {
        let longest = [Self.label63, Self.label63, Self.label63, String(repeating: "b", count: 61)]
            .joined(separator: ".")
        let taken = ["https://\(Self.label63).com/", "https://\(longest)/", "http://a-\(Self.label63.dropFirst(2)):80"]
        for url in taken {
            #expect(isSuccess(AppForwardURL.validate(url)), "\(url)")
            #expect(isSuccess(ForwardURL.validate(url, allowed: .none)), "\(url)")
        }
        let refused = ["https://\(Self.label63)acom/", "https://\(Self.label63)a.com/", "https://x.\(Self.label63)a/",
                       "https://\(longest)b/", "https://\(longest).c/"]
        for url in refused {
            #expect(AppForwardURL.validate(url).failure?.code == .forwardURLFormat, "\(url)")
            #expect(ForwardURL.validate(url, allowed: .none).failure?.code == .forwardURLFormat, "\(url)")
        }
    }

    private func isSuccess<T>(_ result: Result<T, FieldRefusal>) -> Bool {
        if case .success = result { true } else { false }
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let failure) = self { failure } else { nil }
    }
}
