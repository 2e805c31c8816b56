import Domain
import Testing

struct MoneyTextTests {
    @Test(arguments: [
        (999, "USD", "9.99 USD"), (5, "EUR", "0.05 EUR"), (0, "RUB", "0.00 RUB"), (100_000, "GBP", "1000.00 GBP"),
        (500, "JPY", "500 JPY"), (1234, "KWD", "1.234 KWD"), (7, "BHD", "0.007 BHD"), (-250, "USD", "-2.50 USD"),
        (Int.min, "USD", "-92233720368547758.08 USD"),
    ] as [(Int, String, String)])
    func anAmountInMinorUnitsReadsWithItsCurrencysDecimals(amount: Int, currency: String, shown: String) {
        #expect(MoneyText.display(amount: amount, currency: currency) == shown)
    }
}
