import Domain
import Testing

/// `ForwardURL.validate`: what a forward URL may look like and which hosts it may name (issue 14, SSRF guard).
struct ForwardURLTests {
    static func code(_ text: String, allowed: NetworkAllowList = .none) -> MachineCode? {
        ForwardURL.validate(text, allowed: allowed).refusal?.code
    }

    @Test(arguments: [
        "https://hooks.example.com/store", "http://hooks.example.com", "HTTPS://Hooks.Example.COM:8443/a/b?x=1&y=%2F",
        "https://93.184.216.34/x", "https://[2606:4700::1111]:443/x", "https://example.com./", "https://a_b.example/",
        "https://example.com?only=query", "https://xn--bcher-kva.example/",
    ])
    func publicHttpAndHttpsURLsAreAccepted(text: String) {
        #expect(Self.code(text) == nil)
    }

    @Test func theParsedPartsAreLowercasedWithoutBracketsOrTrailingDot() throws {
        let url = try ForwardURL.validate("HTTPS://Hooks.Example.COM.:8443/a", allowed: .none).get()
        #expect(url.scheme == "https" && url.host == "hooks.example.com" && url.port == 8443 && url.address == nil)
        let literal = try ForwardURL.validate("http://[2606:4700::1111]/", allowed: .none).get()
        #expect(literal.host == "2606:4700::1111" && literal.address?.description == "2606:4700::1111")
    }

    @Test(arguments: [
        "", "ftp://example.com/", "file:///etc/passwd", "gopher://example.com", "https:/example.com", "https://",
        "https:///path", "https://user:pw@example.com/", "https://user@example.com/", "https://example.com:0/",
        "https://example.com:65536/", "https://example.com:/", "https://example.com:8a/", "https://exa mple.com/",
        "https://example.com/a b", "https://example.com/#frag", "https://example.com/%zz", "https://example.com/%4",
        "https://bücher.example/", "https://example..com/", "https://-/\u{7F}", "https://[::1/", "https://[v1.x]/",
        "https://[fe80::1%25eth0]/", "https://example.com\\@evil.test/", "javascript:alert(1)",
        "https://" + String(repeating: "a", count: 64) + ".com/",
        "https://example.com/" + String(repeating: "a", count: 2030),
    ])
    func malformedURLsAreRefusedAsFormat(text: String) {
        #expect(Self.code(text) == .forwardURLFormat)
    }

    @Test(arguments: [
        "http://127.0.0.1/", "http://2130706433/", "http://0177.0.0.1/", "http://0x7f.1/", "http://127.1/",
        "http://0x7f000001/", "http://[::1]/", "http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/",
        "http://10.0.0.1/", "http://172.16.5.4/", "http://192.168.0.1/", "http://169.254.169.254/latest/meta-data",
        "http://100.64.0.1/", "http://224.0.0.1/", "http://0.0.0.0/", "http://255.255.255.255/", "http://[fc00::1]/",
        "http://[fe80::1]/", "http://[64:ff9b::10.0.0.1]/", "http://[64:ff9b::a00:1]/", "http://192.0.2.1/",
        "http://localhost/", "http://LOCALHOST:8080/", "http://api.localhost/", "http://93.184.216.034/",
        "http://1572395042/", "http://example.123/", "http://example.0x7f/", "http://1.2.3.4.5/", "http://[::]/",
    ])
    func addressesTheRulesRefuseAndOddSpellingsAreRefusedAsAddress(text: String) {
        #expect(Self.code(text) == .forwardURLAddress)
    }

    @Test func theAllowListAdmitsNamedNetworksButNeverAnOddSpelling() throws {
        let loopback = try NetworkAllowList.parse("127.0.0.0/8,::1/128").get()
        #expect(Self.code("http://127.0.0.1:8080/hook", allowed: loopback) == nil)
        #expect(Self.code("http://[::1]:8080/hook", allowed: loopback) == nil)
        #expect(Self.code("http://localhost:8080/hook", allowed: loopback) == nil)
        #expect(Self.code("http://127.1:8080/hook", allowed: loopback) == .forwardURLAddress)
        #expect(Self.code("http://10.0.0.1/", allowed: loopback) == .forwardURLAddress)
    }

    @Test func theRefusalNamesTheFieldAndNeverEchoesTheURL() throws {
        let refusal = try #require(ForwardURL.validate("http://127.0.0.1/secret-path", allowed: .none,
                                                       field: "url").refusal)
        #expect(refusal.field == "url")
        #expect(!refusal.message.contains("secret-path") && !refusal.message.contains("127.0.0.1"))
        #expect(refusal.message.hasPrefix("field 'url' must "))
    }
}
