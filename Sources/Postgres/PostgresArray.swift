import Foundation

/// A one-dimensional array parameter in Postgres's binary format (what `array_recv` reads): elements are appended
/// as they are, with no quoting or escaping to do here and no array literal to parse on the server.
///
/// Each array holds one element type; appending a value of another type is a programming error (it traps).
public struct PostgresArray: Sendable {
    /// The element types this builder writes.
    public enum ElementType: Sendable {
        case text, uuid, bigint, integer, boolean, json, jsonb

        /// The OIDs of the element type and of its array type (pg_type).
        var oids: (element: UInt32, array: UInt32) {
            switch self {
            case .text: (25, 1009)
            case .uuid: (2950, 2951)
            case .bigint: (20, 1016)
            case .integer: (23, 1007)
            case .boolean: (16, 1000)
            case .json: (114, 199)
            case .jsonb: (3802, 3807)
            }
        }
    }

    /// The type of every element, fixed at creation.
    public let elementType: ElementType
    /// The elements as written: a big-endian length (-1 for NULL) and the bytes of each.
    private var elements: [UInt8] = []
    private var count: Int32 = 0
    private var hasNull = false

    /// An empty array of `elementType`; `capacity` is a hint for the elements' total bytes.
    public init(_ elementType: ElementType, capacity: Int = 0) {
        self.elementType = elementType
        elements.reserveCapacity(capacity)
    }

    /// Appends SQL NULL.
    public mutating func appendNull() {
        append(length: -1)
        hasNull = true
        count += 1
    }

    /// Appends a `text` element, or a `json` or `jsonb` one (`text` must then be JSON; the server checks it, and
    /// parses it into `jsonb`'s tree only for `jsonb`).
    public mutating func append(_ text: String) {
        precondition(elementType == .text || elementType == .json || elementType == .jsonb,
                     "a string in a \(elementType) array")
        var text = text
        text.withUTF8 { utf8 in
            if elementType == .jsonb {
                append(length: utf8.count + 1)
                elements.append(1)  // jsonb's binary format: a version byte, then the text
            } else {
                append(length: utf8.count)
            }
            elements.append(contentsOf: utf8)
        }
        count += 1
    }

    /// Appends a `uuid` element.
    public mutating func append(_ uuid: UUID) {
        precondition(elementType == .uuid, "a UUID in a \(elementType) array")
        append(length: 16)
        withUnsafeBytes(of: uuid.uuid) { elements.append(contentsOf: $0) }
        count += 1
    }

    /// Appends a `bigint` or an `integer` element (traps when it does not fit an `integer`).
    public mutating func append(_ number: Int) {
        switch elementType {
        case .bigint:
            append(length: 8)
            withUnsafeBytes(of: Int64(number).bigEndian) { elements.append(contentsOf: $0) }
        case .integer:
            append(length: 4)
            withUnsafeBytes(of: Int32(number).bigEndian) { elements.append(contentsOf: $0) }
        default:
            preconditionFailure("an integer in a \(elementType) array")
        }
        count += 1
    }

    /// Appends a `boolean` element.
    public mutating func append(_ flag: Bool) {
        precondition(elementType == .boolean, "a boolean in a \(elementType) array")
        append(length: 1)
        elements.append(flag ? 1 : 0)
        count += 1
    }

    /// The parameter: header (one dimension, the NULL flag, the element type, the length, lower bound 1; an empty
    /// array has no dimension) and the elements, declared with the array type.
    public var value: PostgresValue {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20 + elements.count)
        let element = Int32(bitPattern: elementType.oids.element)
        let header: [Int32] = count == 0 ? [0, 0, element] : [1, hasNull ? 1 : 0, element, count, 1]
        for word in header {
            withUnsafeBytes(of: word.bigEndian) { bytes.append(contentsOf: $0) }
        }
        bytes.append(contentsOf: elements)
        return .binary(typeOID: elementType.oids.array, bytes: bytes)
    }

    private mutating func append(length: Int) {
        withUnsafeBytes(of: Int32(length).bigEndian) { elements.append(contentsOf: $0) }
    }
}
