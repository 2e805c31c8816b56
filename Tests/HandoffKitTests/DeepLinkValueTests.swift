@testable import HandoffKit
import Testing

/// How `identify(deepLinkValue:)` reads what it is given: normalized codes and the links that carry them.
@Suite struct DeepLinkValueTests {
    @Test func bareCodesAreTrimmedDespacedAndUpperCased() {
        #expect(DeepLinkValue.parse(" abcd 2345\n") == DeepLinkValue(token: "ABCD2345", method: .code))
        #expect(DeepLinkValue.parse("ABCD234") == nil)
        #expect(DeepLinkValue.parse("ABCD2340") == nil)
        #expect(DeepLinkValue.parse("handoff") == nil)
    }

    @Test func linksNameTheCodeOrTheInstallToken() {
        #expect(DeepLinkValue.parse("myapp://handoff?code=abcd2345")
            == DeepLinkValue(token: "ABCD2345", method: .code))
        #expect(DeepLinkValue.parse("https://x.onelink.me/a?deep_link_value=handoff&deep_link_sub1=WXYZ2345")
            == DeepLinkValue(token: "WXYZ2345", method: .installToken))
        #expect(DeepLinkValue.parse("https://app.adjust.com/abc?user_id=WXYZ2345&adj_label=WXYZ2345")
            == DeepLinkValue(token: "WXYZ2345", method: .installToken))
        #expect(DeepLinkValue.parse("https://app.adjust.com/abc?deep_link=myapp%3A%2F%2Fhandoff%3Fuser_id%3DWXYZ2345")
            == DeepLinkValue(token: "WXYZ2345", method: .installToken))
        #expect(DeepLinkValue.parse("referrer=WXYZ2345") == DeepLinkValue(token: "WXYZ2345", method: .installToken))
        #expect(DeepLinkValue.parse("https://x.onelink.me/a?deep_link_value=handoff") == nil)
    }
}
