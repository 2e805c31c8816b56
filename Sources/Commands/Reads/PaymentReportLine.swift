import Domain

/// One row of a payment report: the figures of one currency, for one group (a UTC day, or a project's product) or
/// for the whole range (a total).
///
/// Amounts are minor units of `currency`, never converted, as decimal text: a sum of amounts that are each at most
/// 2^63 − 1 may exceed a 64-bit integer, and a report states it exactly. Counts are numbers of events.
public struct PaymentReportLine: Sendable, Equatable {
    /// The UTC day (`YYYY-MM-DD`) of a day group; nil otherwise.
    public var day: String?
    /// The project and product id of a product group; nil otherwise.
    public var projectId: String?
    public var productId: String?
    public var currency: String
    /// `PaymentRecorded` events in the range, and the sum of their amounts.
    public var paymentCount: Int
    public var gross: String
    /// `PaymentRefunded` events in the range, and the sum of the amounts of the payments they refund.
    public var refundCount: Int
    public var refunds: String
    /// `gross` − `refunds` (negative when the refunds of earlier payments outweigh the range's payments).
    public var net: String
    /// The affiliate commission figures; nil in a product group (a commission belongs to a store sale, which names
    /// no product of the report: the totals carry it).
    public var commission: Commission?

    /// `CommissionCredited` and `CommissionReversed` events in the range and the sums of their amounts.
    public struct Commission: Sendable, Equatable {
        public var creditCount: Int
        public var credited: String
        public var reversalCount: Int
        public var reversed: String
        /// `credited` − `reversed`.
        public var net: String

        public init(creditCount: Int, credited: String, reversalCount: Int, reversed: String, net: String) {
            self.creditCount = creditCount
            self.credited = credited
            self.reversalCount = reversalCount
            self.reversed = reversed
            self.net = net
        }
    }

    public init(day: String? = nil, projectId: String? = nil, productId: String? = nil, currency: String,
                paymentCount: Int, gross: String, refundCount: Int, refunds: String, net: String,
                commission: Commission?) {
        self.day = day
        self.projectId = projectId
        self.productId = productId
        self.currency = currency
        self.paymentCount = paymentCount
        self.gross = gross
        self.refundCount = refundCount
        self.refunds = refunds
        self.net = net
        self.commission = commission
    }
}
