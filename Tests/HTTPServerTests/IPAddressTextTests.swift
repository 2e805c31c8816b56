#if canImport(Glibc)
import Glibc
#endif
@testable import HTTPServer
import Testing

/// `IPAddress.text` writes IPv4 itself: it must be exactly what `inet_ntop` writes, and parse back to the same bytes.
@Suite struct IPAddressTextTests {
    private func ntop(_ bytes: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        _ = bytes.withUnsafeBytes { raw in inet_ntop(AF_INET, raw.baseAddress, &buffer, socklen_t(buffer.count)) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test func everyByteValueInEveryPositionIsWrittenAsInetNtopWritesIt() {
        for value in 0...255 {
            for position in 0..<4 {
                var bytes: [UInt8] = [203, 0, 113, 9]
                bytes[position] = UInt8(value)
                let text = IPAddress(bytes: bytes).text
                #expect(text == ntop(bytes))
                #expect(IPAddress(text)?.bytes == bytes)
            }
        }
    }

    @Test func theExtremesAndAMappedAddressGiveDottedDecimal() {
        #expect(IPAddress(bytes: [0, 0, 0, 0]).text == "0.0.0.0")
        #expect(IPAddress(bytes: [255, 255, 255, 255]).text == "255.255.255.255")
        #expect(IPAddress("::ffff:198.51.100.7")?.text == "198.51.100.7")
        #expect(IPAddress("2001:db8::1")?.text == "2001:db8::1")
    }
}
