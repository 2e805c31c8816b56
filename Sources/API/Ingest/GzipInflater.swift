/// Inflates a `Content-Encoding: gzip` body (RFC 1952 around RFC 1951 DEFLATE) without ever holding more than
/// `limit` bytes of output: a zip bomb stops at the cap (`.tooLarge`) instead of filling memory.
///
/// Written in Swift after Mark Adler's `puff.c` (the package links no zlib, and a body of at most a few dozen KiB
/// needs no speed beyond this). One gzip member is read; trailing bytes after it, a bad CRC-32 or a wrong length
/// are `.malformed`.
enum GzipInflater {
    /// Why a body did not inflate.
    enum Failure: Error, Equatable {
        /// More than the limit once inflated.
        case tooLarge
        /// Not a gzip member, or its DEFLATE data or trailer is wrong.
        case malformed
    }

    /// The inflated bytes of the single gzip member `input`, at most `limit` of them.
    static func inflate(_ input: [UInt8], limit: Int) -> Result<[UInt8], Failure> {
        do {
            var reader = BitReader(input)
            try readHeader(&reader)
            var output: [UInt8] = []
            output.reserveCapacity(min(limit, max(input.count * 4, 1024)))
            try inflateBlocks(&reader, into: &output, limit: limit)
            let crc = try reader.alignedUInt32()
            let size = try reader.alignedUInt32()
            guard reader.atEnd, crc == CRC32Table.checksum(output), size == UInt32(truncatingIfNeeded: output.count)
            else { throw Failure.malformed }
            return .success(output)
        } catch let failure as Failure {
            return .failure(failure)
        } catch {
            return .failure(.malformed)
        }
    }

    private static func readHeader(_ reader: inout BitReader) throws {
        guard try reader.byte() == 0x1F, try reader.byte() == 0x8B, try reader.byte() == 8 else {
            throw Failure.malformed
        }
        let flags = try reader.byte()
        guard flags & 0xE0 == 0 else { throw Failure.malformed }
        for _ in 0..<6 { _ = try reader.byte() }  // mtime, xfl, os
        if flags & 0x04 != 0 {  // FEXTRA
            let length = Int(try reader.byte()) | Int(try reader.byte()) << 8
            for _ in 0..<length { _ = try reader.byte() }
        }
        if flags & 0x08 != 0 { while try reader.byte() != 0 {} }  // FNAME
        if flags & 0x10 != 0 { while try reader.byte() != 0 {} }  // FCOMMENT
        if flags & 0x02 != 0 { _ = try reader.byte(); _ = try reader.byte() }  // FHCRC
    }

    private static func inflateBlocks(_ reader: inout BitReader, into output: inout [UInt8], limit: Int) throws {
        var last = false
        while !last {
            last = try reader.bits(1) == 1
            switch try reader.bits(2) {
            case 0: try stored(&reader, into: &output, limit: limit)
            case 1: try codes(&reader, into: &output, limit: limit, Huffman.fixedLengths, Huffman.fixedDistances)
            case 2:
                let (lengths, distances) = try dynamicTables(&reader)
                try codes(&reader, into: &output, limit: limit, lengths, distances)
            default: throw Failure.malformed
            }
        }
    }

    private static func stored(_ reader: inout BitReader, into output: inout [UInt8], limit: Int) throws {
        reader.dropToByte()
        let length = Int(try reader.byte()) | Int(try reader.byte()) << 8
        let complement = Int(try reader.byte()) | Int(try reader.byte()) << 8
        guard length == ~complement & 0xFFFF else { throw Failure.malformed }
        guard output.count + length <= limit else { throw Failure.tooLarge }
        for _ in 0..<length { output.append(try reader.byte()) }
    }

    private static let lengthBase: [Int] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59,
                                            67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
                                             5, 5, 5, 5, 0]
    private static let distanceBase: [Int] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385,
                                              513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra: [Int] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10,
                                               10, 11, 11, 12, 12, 13, 13]

    private static func codes(_ reader: inout BitReader, into output: inout [UInt8], limit: Int,
                              _ lengths: Huffman, _ distances: Huffman) throws {
        while true {
            let symbol = try lengths.decode(&reader)
            if symbol < 256 {
                guard output.count < limit else { throw Failure.tooLarge }
                output.append(UInt8(symbol))
            } else if symbol == 256 {
                return
            } else {
                let index = symbol - 257
                guard index < 29 else { throw Failure.malformed }
                let length = try lengthBase[index] + reader.bits(lengthExtra[index])
                let distanceSymbol = try distances.decode(&reader)
                guard distanceSymbol < 30 else { throw Failure.malformed }
                let distance = try distanceBase[distanceSymbol] + reader.bits(distanceExtra[distanceSymbol])
                guard distance <= output.count else { throw Failure.malformed }
                guard output.count + length <= limit else { throw Failure.tooLarge }
                let start = output.count - distance
                for offset in 0..<length { output.append(output[start + offset]) }
            }
        }
    }

    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private static func dynamicTables(_ reader: inout BitReader) throws -> (Huffman, Huffman) {
        let lengthCount = try reader.bits(5) + 257
        let distanceCount = try reader.bits(5) + 1
        let codeCount = try reader.bits(4) + 4
        guard lengthCount <= 286, distanceCount <= 30 else { throw Failure.malformed }
        var codeLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeCount { codeLengths[codeLengthOrder[index]] = try reader.bits(3) }
        let codeLengthCode = try Huffman(lengths: codeLengths)
        guard codeLengthCode.isComplete else { throw Failure.malformed }
        var lengths: [Int] = []
        lengths.reserveCapacity(lengthCount + distanceCount)
        while lengths.count < lengthCount + distanceCount {
            let symbol = try codeLengthCode.decode(&reader)
            switch symbol {
            case 0...15: lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else { throw Failure.malformed }
                lengths += [Int](repeating: previous, count: 3 + (try reader.bits(2)))
            case 17: lengths += [Int](repeating: 0, count: 3 + (try reader.bits(3)))
            default: lengths += [Int](repeating: 0, count: 11 + (try reader.bits(7)))
            }
        }
        guard lengths.count == lengthCount + distanceCount, lengths[256] != 0 else { throw Failure.malformed }
        let literal = try Huffman(lengths: Array(lengths[0..<lengthCount]))
        let distance = try Huffman(lengths: Array(lengths[lengthCount...]))
        guard literal.isComplete || literal.isSingleCode, distance.isComplete || distance.isSingleCode else {
            throw Failure.malformed
        }
        return (literal, distance)
    }

    /// A canonical Huffman code (counts per length and symbols in code order), decoded bit by bit.
    struct Huffman {
        private var counts = [Int](repeating: 0, count: 16)
        private var symbols: [Int]

        static let fixedLengths: Huffman = {
            var lengths = [Int](repeating: 8, count: 288)
            for index in 144..<256 { lengths[index] = 9 }
            for index in 256..<280 { lengths[index] = 7 }
            // swiftlint:disable:next force_try
            return try! Huffman(lengths: lengths)
        }()

        // swiftlint:disable:next force_try
        static let fixedDistances = try! Huffman(lengths: [Int](repeating: 5, count: 30))

        /// Whether every code of up to 15 bits is used.
        let isComplete: Bool
        /// Whether the code has at most one symbol, of length 1 (allowed incomplete, as zlib allows it).
        let isSingleCode: Bool

        /// The code of `lengths` (0 = symbol unused); an over-subscribed code is malformed.
        init(lengths: [Int]) throws {
            symbols = [Int](repeating: 0, count: lengths.count)
            for length in lengths { counts[length] += 1 }
            var left = 1
            for length in 1..<16 {
                left <<= 1
                left -= counts[length]
                guard left >= 0 else { throw Failure.malformed }
            }
            isComplete = left == 0
            isSingleCode = counts[0] + counts[1] == lengths.count
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            for (symbol, length) in lengths.enumerated() where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }

        func decode(_ reader: inout BitReader) throws -> Int {
            var code = 0
            var first = 0
            var index = 0
            for length in 1..<16 {
                code |= try reader.bits(1)
                let count = counts[length]
                if code - count < first { return symbols[index + (code - first)] }
                index += count
                first += count
                first <<= 1
                code <<= 1
            }
            throw Failure.malformed
        }
    }

    /// Reads `input` least-significant bit first, as DEFLATE packs it.
    struct BitReader {
        private let input: [UInt8]
        private var position = 0
        private var buffer = 0
        private var count = 0

        init(_ input: [UInt8]) { self.input = input }

        var atEnd: Bool { position == input.count }

        mutating func bits(_ needed: Int) throws -> Int {
            while count < needed {
                guard position < input.count else { throw Failure.malformed }
                buffer |= Int(input[position]) << count
                position += 1
                count += 8
            }
            let value = buffer & ((1 << needed) - 1)
            buffer >>= needed
            count -= needed
            return value
        }

        /// Forgets the bits left of the current byte.
        mutating func dropToByte() {
            buffer = 0
            count = 0
        }

        mutating func byte() throws -> UInt8 {
            if count >= 8 { return UInt8(try bits(8)) }
            guard position < input.count else { throw Failure.malformed }
            defer { position += 1 }
            return input[position]
        }

        mutating func alignedUInt32() throws -> UInt32 {
            dropToByte()
            var value: UInt32 = 0
            for shift in stride(from: 0, to: 32, by: 8) { value |= UInt32(try byte()) << UInt32(shift) }
            return value
        }
    }
}

/// CRC-32 (IEEE, reflected, as gzip's trailer) by slicing-by-8: eight 256-entry tables, eight bytes a step. The
/// byte-at-a-time loop was ~3 % of a batch's server CPU (`bench/ingest`'s profile); this is several times faster.
private enum CRC32Table {
    /// Table k at offset 256·k: table 0 is the classic one, table k advances table k−1's entry by one more zero byte.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            tables[index] = value
        }
        for slice in 1..<8 {
            for index in 0..<256 {
                let previous = tables[(slice - 1) * 256 + index]
                tables[slice * 256 + index] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        tables.withUnsafeBufferPointer { t in
            bytes.withUnsafeBufferPointer { input in
                var crc: UInt32 = 0xFFFF_FFFF
                var offset = 0
                let count = input.count
                while count - offset >= 8 {
                    let low = crc ^ (UInt32(input[offset]) | UInt32(input[offset + 1]) << 8
                        | UInt32(input[offset + 2]) << 16 | UInt32(input[offset + 3]) << 24)
                    crc = t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
                        ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
                        ^ t[3 * 256 + Int(input[offset + 4])] ^ t[2 * 256 + Int(input[offset + 5])]
                        ^ t[256 + Int(input[offset + 6])] ^ t[Int(input[offset + 7])]
                    offset += 8
                }
                while offset < count {
                    crc = t[Int((crc ^ UInt32(input[offset])) & 0xFF)] ^ (crc >> 8)
                    offset += 1
                }
                return crc ^ 0xFFFF_FFFF
            }
        }
    }
}
