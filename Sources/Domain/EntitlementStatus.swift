import Foundation

/// An entitlement's status, judged when it is read (`status: active|expired|refunded`).
public enum EntitlementStatus: String, Hashable, Sendable, CaseIterable {
    /// Paid, not refunded, and not past its expiry (or lifetime).
    case active
    /// Its `expiresAt` has come.
    case expired
    /// Its payment was refunded; this wins over expiry.
    case refunded

    /// The status at `now`: refunded when a refund was recorded (whenever), else expired from `expiresAt` on,
    /// else active. A nil `expiresAt` is a lifetime entitlement.
    public static func judge(expiresAt: Date?, refundedAt: Date?, now: Date) -> EntitlementStatus {
        if refundedAt != nil { return .refunded }
        if let expiresAt, now >= expiresAt { return .expired }
        return .active
    }
}
