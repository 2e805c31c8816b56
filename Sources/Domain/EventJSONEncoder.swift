import Foundation

/// Encodes an `Encodable` value straight into `EventJSON`, without writing JSON text and parsing it again.
///
/// It gives what `JSONEncoder` followed by `EventJSON.parse` gives, for the values it takes: null, booleans, strings,
/// integers that fit 64 bits signed, and keyed and unkeyed containers of them, nested up to `EventJSON.parse`'s
/// depth. For anything else (floating point; Foundation's types that `JSONEncoder` writes its own way: `Date`,
/// `Data`, `URL`, `Decimal`; deeper nesting; an integer past `Int64.max`) it throws `Unsupported`, and the caller takes
/// the slow path, which then answers exactly as before (`EventPayload.eventJSON()`).
///
/// A store notification's event carries the ~14 kB notification: through `JSONEncoder` every byte was escaped into
/// text, then scanned and copied again by the parser (~8 % of the server's CPU per notification).
public enum EventJSONEncoder {
    /// The value is outside what this encoder writes; `JSONEncoder` must decide.
    public struct Unsupported: Error, Sendable {
        public let reason: String
    }

    /// The value as event JSON, or `Unsupported`; errors thrown by the value's own `encode(to:)` pass through.
    public static func encode<T: Encodable>(_ value: T) throws -> EventJSON {
        let root = Node()
        try Encoding(node: root).encodeValue(value)
        guard let json = try root.json() else { throw Unsupported(reason: "the top-level value encoded nothing") }
        return json
    }

    /// What one encoder or container writes into, filled in as the value encodes; a reference, because containers
    /// handed out earlier keep writing into it.
    final class Node {
        enum Content {
            case empty
            case value(EventJSON)
            case object([String: Node])
            case array([Node])
        }

        var content: Content = .empty
        /// The container this value is in, and its key there: the coding path, built only when asked for. Unowned:
        /// the parent holds its children, and the whole tree lives while the value encodes.
        unowned let parent: Node?
        let key: (any CodingKey)?
        /// How deep the value sits: from `EventJSON.parse`'s limit on the slow path refuses, so this path may not
        /// accept either (`json()`).
        let depth: Int

        init(parent: Node? = nil, key: (any CodingKey)? = nil) {
            self.parent = parent
            self.key = key
            self.depth = parent.map { $0.depth + 1 } ?? 0
        }

        var codingPath: [any CodingKey] {
            var path: [any CodingKey] = []
            var node: Node? = self
            while let current = node, let key = current.key {
                path.append(key)
                node = current.parent
            }
            return path.reversed()
        }

        /// The finished value; a value that encoded nothing is `{}`, as in `JSONEncoder`.
        func json() throws -> EventJSON? {
            guard depth < EventJSONEncoder.maximumDepth else { throw Unsupported(reason: "nested too deep") }
            switch content {
            case .empty: return nil
            case .value(let value): return value
            case .object(let members):
                var object: [String: EventJSON] = [:]
                object.reserveCapacity(members.count)
                for (key, node) in members {
                    object[try EventJSONEncoder.text(key)] = try node.json() ?? .object([:])
                }
                return .object(object)
            case .array(let elements): return .array(try elements.map { try $0.json() ?? .object([:]) })
            }
        }

        func member(_ key: any CodingKey) -> Node {
            let node = Node(parent: self, key: key)
            if case .object(var members) = content {
                content = .empty
                members[key.stringValue] = node
                content = .object(members)
            }
            return node
        }

        func append() -> Node {
            let node = Node(parent: self, key: IndexKey(intValue: count))
            if case .array(var elements) = content {
                content = .empty
                elements.append(node)
                content = .array(elements)
            }
            return node
        }

        var count: Int {
            switch content {
            case .object(let members): members.count
            case .array(let elements): elements.count
            default: 0
            }
        }
    }

    /// `EventJSON.parse`'s nesting limit.
    static let maximumDepth = 64

    /// The `Encoder` handed to values: one per node.
    struct Encoding: Encoder {
        let node: Node
        var codingPath: [any CodingKey] { node.codingPath }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if case .object = node.content {} else { node.content = .object([:]) }
            return KeyedEncodingContainer(Keyed<Key>(node: node))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if case .array = node.content {} else { node.content = .array([]) }
            return Unkeyed(node: node)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            Single(node: node)
        }

        /// Encodes `value` into this node: Foundation's specially written types and floating point are
        /// `Unsupported`, everything else encodes itself.
        func encodeValue<T: Encodable>(_ value: T) throws {
            if T.self == Double.self || T.self == Float.self || T.self == Date.self || T.self == Data.self
                || T.self == URL.self || T.self == Decimal.self {
                throw Unsupported(reason: "\(T.self) is written by JSONEncoder's own rules")
            }
            try value.encode(to: self)
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        var codingPath: [any CodingKey] { node.codingPath }

        private func encoding(_ key: Key) -> Encoding {
            Encoding(node: node.member(key))
        }

        mutating func encodeNil(forKey key: Key) throws { encoding(key).node.content = .value(.null) }
        mutating func encode(_ value: Bool, forKey key: Key) throws {
            encoding(key).node.content = .value(.bool(value))
        }
        mutating func encode(_ value: String, forKey key: Key) throws {
            encoding(key).node.content = .value(.string(try text(value)))
        }
        mutating func encode(_ value: Double, forKey key: Key) throws { throw Unsupported(reason: "a Double") }
        mutating func encode(_ value: Float, forKey key: Key) throws { throw Unsupported(reason: "a Float") }
        mutating func encode(_ value: Int, forKey key: Key) throws { try encodeInteger(value, key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { try encodeInteger(value, key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { try encodeInteger(value, key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { try encodeInteger(value, key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { try encodeInteger(value, key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { try encodeInteger(value, key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { try encodeInteger(value, key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { try encodeInteger(value, key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { try encodeInteger(value, key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { try encodeInteger(value, key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encoding(key).encodeValue(value) }

        private func encodeInteger<I: BinaryInteger>(_ value: I, _ key: Key) throws {
            encoding(key).node.content = .value(.integer(try integer(value)))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            nested(key).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            nested(key).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { nested(SuperKey.super) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { nested(key) }

        private func nested(_ key: any CodingKey) -> Encoding {
            Encoding(node: node.member(key))
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey] { node.codingPath }
        var count: Int { node.count }

        private func next() -> Encoding {
            Encoding(node: node.append())
        }

        mutating func encodeNil() throws { next().node.content = .value(.null) }
        mutating func encode(_ value: Bool) throws { next().node.content = .value(.bool(value)) }
        mutating func encode(_ value: String) throws { next().node.content = .value(.string(try text(value))) }
        mutating func encode(_ value: Double) throws { throw Unsupported(reason: "a Double") }
        mutating func encode(_ value: Float) throws { throw Unsupported(reason: "a Float") }
        mutating func encode(_ value: Int) throws { try encodeInteger(value) }
        mutating func encode(_ value: Int8) throws { try encodeInteger(value) }
        mutating func encode(_ value: Int16) throws { try encodeInteger(value) }
        mutating func encode(_ value: Int32) throws { try encodeInteger(value) }
        mutating func encode(_ value: Int64) throws { try encodeInteger(value) }
        mutating func encode(_ value: UInt) throws { try encodeInteger(value) }
        mutating func encode(_ value: UInt8) throws { try encodeInteger(value) }
        mutating func encode(_ value: UInt16) throws { try encodeInteger(value) }
        mutating func encode(_ value: UInt32) throws { try encodeInteger(value) }
        mutating func encode(_ value: UInt64) throws { try encodeInteger(value) }
        mutating func encode<T: Encodable>(_ value: T) throws { try next().encodeValue(value) }

        private func encodeInteger<I: BinaryInteger>(_ value: I) throws {
            next().node.content = .value(.integer(try integer(value)))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey> {
            next().container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { next().unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { next() }
    }

    struct Single: SingleValueEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey] { node.codingPath }

        mutating func encodeNil() throws { node.content = .value(.null) }
        mutating func encode(_ value: Bool) throws { node.content = .value(.bool(value)) }
        mutating func encode(_ value: String) throws { node.content = .value(.string(try text(value))) }
        mutating func encode(_ value: Double) throws { throw Unsupported(reason: "a Double") }
        mutating func encode(_ value: Float) throws { throw Unsupported(reason: "a Float") }
        mutating func encode(_ value: Int) throws { node.content = .value(.integer(try integer(value))) }
        mutating func encode(_ value: Int8) throws { node.content = .value(.integer(try integer(value))) }
        mutating func encode(_ value: Int16) throws { node.content = .value(.integer(try integer(value))) }
        mutating func encode(_ value: Int32) throws { node.content = .value(.integer(try integer(value))) }
        mutating func encode(_ value: Int64) throws { node.content = .value(.integer(value)) }
        mutating func encode(_ value: UInt) throws { node.content = .value(.integer(try integer(value))) }
        mutating func encode(_ value: UInt8) throws { node.content = .value(.integer(try integer(value))) }
        mutating func encode(_ value: UInt16) throws { node.content = .value(.integer(try integer(value))) }
        mutating func encode(_ value: UInt32) throws { node.content = .value(.integer(try integer(value))) }
        mutating func encode(_ value: UInt64) throws { node.content = .value(.integer(try integer(value))) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            try Encoding(node: node).encodeValue(value)
        }
    }

    /// A string as event JSON holds it: U+0000 is refused by the parser (Postgres text cannot hold it), so a string
    /// with it is left to the slow path, which refuses it with its own message. Keys are strings too.
    static func text(_ value: String) throws -> String {
        var value = value
        let hasNull = value.withUTF8 { bytes in bytes.baseAddress.map { memchr($0, 0, bytes.count) != nil } ?? false }
        guard !hasNull else { throw Unsupported(reason: "U+0000 in a string") }
        return value
    }

    /// An integer as event JSON holds it; past `Int64.max` the slow path refuses it with its own message.
    static func integer<I: BinaryInteger>(_ value: I) throws -> Int64 {
        guard let exact = Int64(exactly: value) else { throw Unsupported(reason: "an integer past Int64.max") }
        return exact
    }

    struct IndexKey: CodingKey {
        var stringValue: String { "Index \(intValue ?? 0)" }
        let intValue: Int?
        init(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { nil }
    }

    enum SuperKey: String, CodingKey {
        case `super`
    }
}
