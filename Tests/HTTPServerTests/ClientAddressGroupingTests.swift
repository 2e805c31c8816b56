import HTTPServer
import Testing

/// The one key every per-client limit counts under.
@Suite struct ClientAddressGroupingTests {
    @Test func ipv4ClientsCountByTheirAddressAndIPv4MappedOnesAsTheIPv4Address() {
        let grouping = ClientAddressGrouping()
        #expect(grouping.key(for: "198.51.100.7") == "198.51.100.7")
        #expect(grouping.key(for: "::ffff:198.51.100.7") == "198.51.100.7")
        #expect(grouping.key(for: "198.51.100.8") != grouping.key(for: "198.51.100.7"))
    }

    @Test func ipv6ClientsOfOneSlash64ShareAKeyAndOtherSlash64sDoNot() {
        let grouping = ClientAddressGrouping()
        #expect(grouping.key(for: "2001:db8:1:2::a") == "2001:db8:1:2::/64")
        #expect(grouping.key(for: "2001:db8:1:2:ffff:ffff:ffff:ffff") == "2001:db8:1:2::/64")
        #expect(grouping.key(for: "2001:DB8:1:2:0:0:0:B") == "2001:db8:1:2::/64")
        #expect(grouping.key(for: "2001:db8:1:3::a") == "2001:db8:1:3::/64")
        #expect(grouping.key(for: "::1") == "::/64")
    }

    @Test func thePrefixLengthIsConfigurable() {
        #expect(ClientAddressGrouping(ipv6PrefixLength: 48).key(for: "2001:db8:1:2::a") == "2001:db8:1::/48")
        #expect(ClientAddressGrouping(ipv6PrefixLength: 56).key(for: "2001:db8:1:2ff::a") == "2001:db8:1:200::/56")
        #expect(ClientAddressGrouping(ipv6PrefixLength: 128).key(for: "2001:db8::a") == "2001:db8::a/128")
        #expect(ClientAddressGrouping(ipv6PrefixLength: 60).key(for: "2001:db8:0:1f::1") == "2001:db8:0:10::/60")
    }

    @Test func textThatIsNotAnAddressIsItsOwnKey() {
        #expect(ClientAddressGrouping().key(for: "") == "")
        #expect(ClientAddressGrouping().key(for: "unknown") == "unknown")
    }
}
