import Foundation

extension AppleTransaction {
    /// The price in minor units of its currency (`price` is in milliunits: 9990 USD → 999), or 0 `XXX` when the
    /// transaction names no valid currency code or price.
    public var minorPrice: (amount: Int, currency: String) {
        guard let code = currency, code.utf8.count == 3,
              code.utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }),
              let price, let units = StorePurchase.minorUnits(milliunits: price, currency: code)
        else { return (0, StorePurchase.unknownCurrency) }
        return (units, code)
    }
}
