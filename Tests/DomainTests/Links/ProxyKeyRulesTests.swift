import Domain
import Testing

/// Proxy keys and their domains (issue 21): the key's shape and the domain rule.
struct ProxyKeyRulesTests {
    @Test func aProxyKeyIsPxAnd32Base64URLCharactersSpelledExactly() {
        let key = ProxyKey(randomBytes: Array(repeating: 9, count: 24))
        #expect(key.text.hasPrefix("px_") && key.text.count == ProxyKey.length && ProxyKey.parse(key.text) == key)
        #expect(key.visiblePrefix == String(key.text.prefix(11)))
        let wrong = ["", "px_", "pk_" + String(key.text.dropFirst(3)), key.text + "A",
                     "px_" + String(repeating: "+", count: 32)]
        for text in wrong {
            #expect(ProxyKey.parse(text) == nil, "\(text)")
        }
    }

    @Test func domainsAreHostNamesLowercasedWithoutRepeats() throws {
        #expect(try ProxyDomains.parse(["Links.Example.com", "go.example.com", "links.example.com"]).get()
            == ["links.example.com", "go.example.com"])
        let refused: [[String]] = [[], ["localhost"], ["a..b.com"], ["-x.example.com"], ["x-.example.com"],
                                   ["exa mple.com"], ["https://links.example.com"], (0...20).map { "d\($0).com" }]
        for bad in refused {
            guard case .failure(let refusal) = ProxyDomains.parse(bad) else {
                Issue.record("\(bad) was taken")
                continue
            }
            #expect(refusal.code == .proxyDomainFormat && refusal.field == "domains")
        }
    }
}
