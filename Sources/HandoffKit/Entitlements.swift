import Foundation

/// The buyer's entitlements, judged by the server when asked (`GET /public/entitlements`).
public struct Entitlements: Sendable, Equatable, Decodable {
    /// The guid they belong to.
    public let guid: String
    /// Whether any entitlement is active now: the one value most apps need.
    public let active: Bool
    /// One per payment, oldest first.
    public let entitlements: [Entitlement]
}

/// One payment's entitlement.
public struct Entitlement: Sendable, Equatable, Decodable {
    /// The entitlement's name, as the paying backend recorded it (`pro`).
    public let entitlement: String
    public let productId: String
    public let paymentId: String
    /// `active`, `expired` (from `expiresAt` on) or `refunded`.
    public let status: String
    /// When it ends; nil for a lifetime entitlement.
    public let expiresAt: Date?

    /// Whether the server judged it active.
    public var isActive: Bool { status == "active" }

    private enum Keys: String, CodingKey {
        case entitlement, productId, paymentId, status, expiresAt
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        entitlement = try container.decode(String.self, forKey: .entitlement)
        productId = try container.decode(String.self, forKey: .productId)
        paymentId = try container.decode(String.self, forKey: .paymentId)
        status = try container.decode(String.self, forKey: .status)
        expiresAt = try container.decodeIfPresent(String.self, forKey: .expiresAt).flatMap(Instant.parse)
    }
}

/// The server's instants: `yyyy-MM-ddTHH:mm:ss.SSSZ` (UTC), also read without fractional seconds.
enum Instant {
    static func parse(_ text: String) -> Date? {
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = fractional.date(from: text) { return date }
        return ISO8601DateFormatter().date(from: text)
    }
}
