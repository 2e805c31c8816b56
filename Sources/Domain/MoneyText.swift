/// An amount in minor units shown to a person: `999` `USD` → `9.99 USD`, `500` `JPY` → `500 JPY`.
///
/// The number of decimals is the currency's ISO 4217 minor unit: 0 for the currencies without one, 3 for the
/// dinar-like ones, 2 for every other code (the common case, and a safe reading of an unknown code).
public enum MoneyText {
    /// ISO 4217 currencies with no minor unit.
    static let noDecimals: Set<String> = [
        "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF",
        "XOF", "XPF",
    ]
    /// ISO 4217 currencies with three decimals.
    static let threeDecimals: Set<String> = ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]

    /// The decimals of `currency`'s minor unit.
    public static func decimals(_ currency: String) -> Int {
        if noDecimals.contains(currency) { return 0 }
        if threeDecimals.contains(currency) { return 3 }
        return 2
    }

    /// `amount` minor units of `currency` as `units.fraction CUR` (a minus sign for a negative amount).
    public static func display(amount: Int, currency: String) -> String {
        let decimals = decimals(currency)
        let magnitude = amount.magnitude
        let sign = amount < 0 ? "-" : ""
        guard decimals > 0 else { return "\(sign)\(magnitude) \(currency)" }
        var scale: UInt = 1
        for _ in 0..<decimals { scale *= 10 }
        let fraction = String(magnitude % scale)
        let padded = String(repeating: "0", count: decimals - fraction.count) + fraction
        return "\(sign)\(magnitude / scale).\(padded) \(currency)"
    }
}
