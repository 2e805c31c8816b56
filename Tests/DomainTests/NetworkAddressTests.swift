import Domain
import Testing

/// The address rules of forwards (issue 14, SSRF guard): how a host spells an address, and which class it is in.
struct NetworkAddressTests {
    static func v4(_ text: String) -> String? { NetworkAddress.parseIPv4(text).map { "\($0.address)" } }
    static func v6(_ text: String) -> NetworkAddress? { NetworkAddress.parseIPv6(text) }
    static func address(_ text: String) -> NetworkAddress {
        NetworkAddress.parseCanonical(text) ?? NetworkAddress.parseIPv6(text)!
    }

    @Test(arguments: [
        ("127.0.0.1", "127.0.0.1"), ("2130706433", "127.0.0.1"), ("0177.0.0.1", "127.0.0.1"),
        ("0x7f.1", "127.0.0.1"), ("127.1", "127.0.0.1"), ("0x7F000001", "127.0.0.1"), ("017700000001", "127.0.0.1"),
        ("127.0.1", "127.0.0.1"), ("0", "0.0.0.0"), ("0x", "0.0.0.0"), ("10.0.258", "10.0.1.2"),
        ("192.168.0x1.1", "192.168.1.1"), ("4294967295", "255.255.255.255"),
    ])
    func inetAtonSpellingsParseToTheAddressLibcurlWouldConnectTo(text: String, expected: String) {
        #expect(Self.v4(text) == expected)
    }

    @Test(arguments: ["", ".", "1..2", "1.2.3.4.5", "256.1.1.1", "1.2.3.256", "4294967296", "08", "0x1g", "127.0.0.1.",
                      "a.b.c.d", " 1.2.3.4", "1.2.3.-4", "+1.2.3.4", "1.2.65536"])
    func nonNumbersAreNotIPv4(text: String) {
        #expect(Self.v4(text) == nil)
    }

    @Test func onlyFourDecimalPartsWithoutLeadingZerosAreCanonical() {
        #expect(NetworkAddress.parseIPv4("93.184.216.34")?.spelling == .canonical)
        #expect(NetworkAddress.parseIPv4("0.0.0.0")?.spelling == .canonical)
        for odd in ["93.184.216.034", "93.184.55330", "1572395042", "0x5d.0xb8.0xd8.0x22"] {
            #expect(NetworkAddress.parseIPv4(odd)?.spelling == .odd, "\(odd)")
        }
    }

    @Test func ipv6TextParsesIncludingEmbeddedIPv4AndPrintsPerRFC5952() {
        #expect(Self.v6("::1")?.description == "::1")
        #expect(Self.v6("::")?.description == "::")
        #expect(Self.v6("2001:DB8:0:0:0:0:0:1")?.description == "2001:db8::1")
        #expect(Self.v6("::ffff:127.0.0.1")?.description == "::ffff:127.0.0.1")
        #expect(Self.v6("::ffff:7f00:1") == Self.v6("::ffff:127.0.0.1"))
        #expect(Self.v6("64:ff9b::10.0.0.1")?.description == "64:ff9b::a00:1")
        #expect(Self.v6("1:2:3:4:5:6:7:8")?.description == "1:2:3:4:5:6:7:8")
        #expect(Self.v6("1:0:0:2:0:0:0:3")?.description == "1:0:0:2::3")
        for bad in ["", ":", ":::", "1::2::3", "1:2:3:4:5:6:7:8:9", "12345::", "::g", "fe80::1%eth0", "::0177.0.0.1",
                    "::127.1", "1:2:3:4:5:6:7::8:9", "[::1]"] {
            #expect(Self.v6(bad) == nil, "\(bad)")
        }
    }

    @Test(arguments: [
        ("8.8.8.8", AddressClass.public), ("93.184.216.34", .public), ("127.0.0.1", .loopback),
        ("127.255.255.254", .loopback), ("10.1.2.3", .private), ("172.16.0.1", .private), ("172.31.255.255", .private),
        ("172.32.0.1", .public), ("192.168.1.1", .private), ("169.254.169.254", .linkLocal),
        ("100.64.0.1", .sharedAddressSpace), ("100.127.255.255", .sharedAddressSpace), ("100.128.0.1", .public),
        ("224.0.0.1", .multicast), ("239.255.255.250", .multicast), ("0.0.0.0", .unspecified),
        ("0.1.2.3", .unspecified), ("255.255.255.255", .broadcast), ("240.0.0.1", .reserved),
        ("192.0.2.1", .reserved), ("198.51.100.7", .reserved), ("203.0.113.9", .reserved), ("198.18.0.1", .reserved),
        ("198.19.255.255", .reserved), ("192.0.0.8", .reserved), ("192.88.99.1", .reserved),
        ("::1", .loopback), ("::", .unspecified), ("fc00::1", .private), ("fd12:3456::1", .private),
        ("fe80::1", .linkLocal), ("febf::1", .linkLocal), ("fec0::1", .private), ("ff02::1", .multicast),
        ("::ffff:127.0.0.1", .ipv4Mapped), ("::ffff:8.8.8.8", .ipv4Mapped), ("::127.0.0.1", .ipv4Compatible),
        ("64:ff9b::10.0.0.1", .private), ("64:ff9b::127.0.0.1", .loopback), ("64:ff9b::169.254.169.254", .linkLocal),
        ("64:ff9b::8.8.8.8", .public), ("64:ff9b:1::1", .private), ("2001:db8::1", .reserved),
        ("2001::1", .reserved), ("2002:7f00:1::1", .reserved), ("100::1", .reserved), ("2606:4700::1111", .public),
        ("2a00:1450:4001::200e", .public), ("4000::1", .reserved), ("3fff::1", .reserved),
    ])
    func everyAddressFallsInItsRegistryClass(text: String, expected: AddressClass) {
        #expect(Self.address(text).addressClass == expected)
    }

    @Test func onlyPublicAddressesArePermittedUnlessTheAllowListAdmitsThem() throws {
        let none = NetworkAllowList.none
        #expect(OutboundAddressRule.verdict(Self.address("8.8.8.8"), allowed: none) == .permitted)
        #expect(OutboundAddressRule.verdict(Self.address("127.0.0.1"), allowed: none) == .refused(.loopback))
        #expect(OutboundAddressRule.verdict(Self.address("::ffff:8.8.8.8"), allowed: none) == .refused(.ipv4Mapped))
        let loopback = try NetworkAllowList.parse("127.0.0.2/32, fd00::/8").get()
        #expect(OutboundAddressRule.verdict(Self.address("127.0.0.2"), allowed: loopback) == .permitted)
        #expect(OutboundAddressRule.verdict(Self.address("127.0.0.1"), allowed: loopback) == .refused(.loopback))
        #expect(OutboundAddressRule.verdict(Self.address("fd00::5"), allowed: loopback) == .permitted)
        // A mapped address reaches the IPv4 host it wraps: an IPv4 block admits it.
        #expect(OutboundAddressRule.verdict(Self.address("::ffff:127.0.0.2"), allowed: loopback) == .permitted)
        #expect(OutboundAddressRule.verdict(Self.address("::ffff:127.0.0.1"), allowed: loopback)
            == .refused(.ipv4Mapped))
    }

    @Test func theAllowListTakesCanonicalCIDRBlocksOnly() throws {
        #expect(try NetworkAllowList.parse("").get() == .none)
        #expect(try NetworkAllowList.parse("  ").get() == .none)
        #expect(try NetworkAllowList.parse("10.0.0.0/8,192.168.1.7").get().blocks.map(\.description)
            == ["10.0.0.0/8", "192.168.1.7/32"])
        #expect(try NetworkAllowList.parse("::1/128, 0.0.0.0/0").get().blocks.map(\.description)
            == ["::1/128", "0.0.0.0/0"])
        for bad in ["10.0.0.1/8", "10/8", "127.1/32", "10.0.0.0/33", "::1/129", "10.0.0.0/", "a", "10.0.0.0/8,",
                    "10.0.0.0/-1", "10.0.0.0/08x", "0x0a.0.0.0/8"] {
            let refusal = try #require(NetworkAllowList.parse(bad).refusal, "\(bad)")
            #expect(refusal.code == .networkFormat && refusal.field == "FORWARD_ALLOWED_NETWORKS")
        }
    }
}

extension Result {
    var refusal: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}

/// `DeliveryAnswer.excerpt`: the first bytes of a receiver's answer kept with a delivery attempt.
struct DeliveryAnswerTests {
    @Test func shortAnswersAreKeptAsTheyAre() {
        #expect(DeliveryAnswer.excerpt(Array(#"{"ok":true}"#.utf8)) == #"{"ok":true}"#)
        #expect(DeliveryAnswer.excerpt([]) == "")
    }

    @Test func controlAndBidiCharactersBecomeSpacesAndInvalidBytesAReplacementCharacter() {
        #expect(DeliveryAnswer.excerpt(Array("a\r\nb\u{1B}[31mc\u{202E}d\t".utf8)) == "a  b [31mc d ")
        #expect(DeliveryAnswer.excerpt([0x61, 0xFF, 0x62]) == "a\u{FFFD}b")
    }

    @Test func longAnswersAreCutToAtMost256BytesOnACharacterBoundary() {
        #expect(DeliveryAnswer.excerpt(Array(repeating: 0x78, count: 10_000)) == String(repeating: "x", count: 256))
        let cyrillic = DeliveryAnswer.excerpt(Array(String(repeating: "я", count: 200).utf8))
        #expect(cyrillic == String(repeating: "я", count: 128))
        let shifted = DeliveryAnswer.excerpt(Array(("x" + String(repeating: "я", count: 200)).utf8))
        #expect(shifted == "x" + String(repeating: "я", count: 127))
        #expect(shifted.utf8.count == 255)
    }
}
