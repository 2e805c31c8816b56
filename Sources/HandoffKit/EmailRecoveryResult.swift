import Foundation

/// What `Web2App.requestEmailRecovery(email:)` tells the app to show.
public enum EmailRecoveryResult: Sendable, Equatable {
    /// The server took the request (204). It answers the same for every address, so this does not say a mail is
    /// coming: a mail goes out only when the address belongs to a buyer with a payment, and at most one per address
    /// every 20 minutes (later requests inside that time send nothing). Tell the buyer to look for the mail (and in
    /// spam) and to type the code from it; offer another request from `retryAllowedAt` on.
    case requested(retryAllowedAt: Date)

    /// The server's quiet gap between two mails to one address: 20 minutes.
    public static let resendInterval: TimeInterval = 20 * 60
}
