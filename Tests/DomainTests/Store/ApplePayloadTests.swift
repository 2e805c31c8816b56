import Domain
import Foundation
import Testing

/// Decoding the payloads of App Store JWS: notifications, transactions, renewal info, and their limits.
struct ApplePayloadTests {
    private func payload(_ name: String) throws -> [UInt8] {
        try CompactJWS.parse(AppleFixtureText.signedData(name)).get().payload
    }

    private func notificationFailure(_ json: String) -> String? {
        if case .failure(let failure) = AppleNotificationPayload.decode(Array(json.utf8)) { return failure.message }
        return nil
    }

    private static let uuid = "9ad56bd2-0bc6-42e0-af24-fd996d87a1e6"

    @Test func theTestNotificationDecodes() throws {
        let notification = try AppleNotificationPayload.decode(payload("testNotification")).get()
        #expect(notification.notificationType == "TEST")
        #expect(notification.subtype == nil)
        #expect(notification.notificationUUID == Self.uuid)
        #expect(notification.signedDate == 1_681_314_324_000)
        #expect(notification.signedAt == Date(timeIntervalSince1970: 1_681_314_324))
        #expect(notification.data?.appAppleId == 1234)
        #expect(notification.app == AppleNotificationApp(bundleId: "com.example", appAppleId: 1234,
                                                         environment: "Sandbox"))
    }

    @Test func theWrongBundleIdNotificationNamesItsBundle() throws {
        let notification = try AppleNotificationPayload.decode(payload("wrongBundleId")).get()
        #expect(notification.app.bundleId == "com.example.wrong")
        #expect(notification.signedDate == nil)
    }

    @Test func theTransactionFixtureDecodes() throws {
        let transaction = try AppleTransaction.decode(payload("transactionInfo")).get()
        #expect(transaction.environment == "Sandbox")
        #expect(transaction.bundleId == "com.example")
        #expect(transaction.signedDate == 1_672_956_154_000)
    }

    @Test func theRenewalInfoFixtureDecodes() throws {
        let renewal = try AppleRenewalInfo.decode(payload("renewalInfo")).get()
        #expect(renewal.environment == "Sandbox")
        #expect(renewal.signedDate == 1_672_956_154_000)
    }

    @Test func aFullTransactionDecodesEveryField() throws {
        let json = """
            {"transactionId":"2000000123","originalTransactionId":"2000000100","webOrderLineItemId":"2000000050",
             "bundleId":"com.example","productId":"pro.monthly","subscriptionGroupIdentifier":"21000001",
             "purchaseDate":1700000000000,"originalPurchaseDate":1690000000000,"expiresDate":1702592000000,
             "quantity":1,"type":"Auto-Renewable Subscription",
             "appAccountToken":"7E3FB20B-4CDB-47CC-936D-99D65F608138","inAppOwnershipType":"PURCHASED",
             "signedDate":1700000001000,"revocationReason":1,"revocationDate":1701000000000,"isUpgraded":false,
             "offerType":1,"offerIdentifier":"intro","environment":"Production","storefront":"USA",
             "storefrontId":"143441","transactionReason":"RENEWAL","currency":"USD","price":10990,
             "offerDiscountType":"FREE_TRIAL","offerPeriod":"P1W","appTransactionId":"704","futureField":{"x":1}}
            """
        let transaction = try AppleTransaction.decode(Array(json.utf8)).get()
        #expect(transaction.transactionId == "2000000123")
        #expect(transaction.originalTransactionId == "2000000100")
        #expect(transaction.productId == "pro.monthly")
        #expect(transaction.price == 10_990)
        #expect(transaction.currency == "USD")
        #expect(transaction.type == "Auto-Renewable Subscription")
        #expect(transaction.appAccountTokenUUID == UUID(uuidString: "7e3fb20b-4cdb-47cc-936d-99d65f608138"))
        #expect(transaction.expiresAt == Date(timeIntervalSince1970: 1_702_592_000))
        #expect(transaction.purchasedAt == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(transaction.revokedAt == Date(timeIntervalSince1970: 1_701_000_000))
        #expect(transaction.isUpgraded == false)
        #expect(transaction.offerPeriod == "P1W")
        #expect(transaction.appTransactionId == "704")
    }

    @Test func anAppAccountTokenThatIsNoUUIDIsKeptButHasNoUUID() throws {
        let transaction = try AppleTransaction.decode(Array(#"{"appAccountToken":"abc"}"#.utf8)).get()
        #expect(transaction.appAccountToken == "abc")
        #expect(transaction.appAccountTokenUUID == nil)
    }

    @Test func aNotificationNeedsItsTypeAndAUUID() {
        #expect(notificationFailure(#"{"notificationUUID":"\#(Self.uuid)"}"#)
            == "field 'notificationType' is required")
        #expect(notificationFailure(#"{"notificationType":"TEST"}"#) == "field 'notificationUUID' is required")
        #expect(notificationFailure(#"{"notificationType":"TEST","notificationUUID":"abc"}"#)
            == "field 'notificationUUID' must be a UUID")
        #expect(notificationFailure(#"{"notificationType":"","notificationUUID":"\#(Self.uuid)"}"#)
            == "field 'notificationType' is required")
    }

    @Test func wrongTypesNameTheirField() {
        let base = #""notificationType":"TEST","notificationUUID":"\#(Self.uuid)""#
        #expect(notificationFailure(#"{\#(base),"data":{"appAppleId":"1234"}}"#)
            == "field 'data.appAppleId' must be an integer")
        #expect(notificationFailure(#"{\#(base),"signedDate":"yesterday"}"#)
            == "field 'signedDate' must be an integer")
        #expect(notificationFailure(#"{\#(base),"data":[]}"#) == "field 'data' must be an object")
        #expect(notificationFailure(#"{\#(base),"summary":{"storefrontCountryCodes":[1]}}"#)
            == "field 'summary.storefrontCountryCodes[0]' must be a string")
        #expect(notificationFailure("[]") == "the payload is not a JSON object")
        #expect(notificationFailure("not json") == "the payload is not a JSON object")
    }

    @Test func stringsOverTheirLimitNameTheirField() {
        let base = #""notificationType":"TEST","notificationUUID":"\#(Self.uuid)""#
        let bundle = String(repeating: "a", count: AppleFieldLimits.bundleId + 1)
        #expect(notificationFailure(#"{\#(base),"data":{"bundleId":"\#(bundle)"}}"#)
            == "field 'data.bundleId' is longer than 255 bytes")
        let type = String(repeating: "T", count: AppleFieldLimits.word + 1)
        #expect(notificationFailure(#"{"notificationType":"\#(type)","notificationUUID":"\#(Self.uuid)"}"#)
            == "field 'notificationType' is longer than 64 bytes")
        let fitting = String(repeating: "a", count: AppleFieldLimits.bundleId)
        #expect(notificationFailure(#"{\#(base),"data":{"bundleId":"\#(fitting)"}}"#) == nil)
        let codes = "[" + Array(repeating: #""USA""#, count: AppleFieldLimits.listEntries + 1)
            .joined(separator: ",") + "]"
        #expect(notificationFailure(#"{\#(base),"summary":{"storefrontCountryCodes":\#(codes)}}"#)
            == "field 'summary.storefrontCountryCodes' has more than 512 entries")
        let currency = String(repeating: "U", count: AppleFieldLimits.currency + 1)
        guard case .failure(let failure) = AppleTransaction.decode(Array(#"{"currency":"\#(currency)"}"#.utf8)) else {
            Issue.record("a long currency was accepted")
            return
        }
        #expect(failure.message == "field 'currency' is longer than 16 bytes")
    }

    @Test func theAppComesFromDataThenSummaryThenTokenThenAppData() throws {
        let base = #""notificationType":"X","notificationUUID":"\#(Self.uuid)""#
        func app(_ body: String) throws -> AppleNotificationApp {
            try AppleNotificationPayload.decode(Array(#"{\#(base),\#(body)}"#.utf8)).get().app
        }
        #expect(try app(#""summary":{"bundleId":"b","appAppleId":5,"environment":"Production"}"#)
            == AppleNotificationApp(bundleId: "b", appAppleId: 5, environment: "Production"))
        #expect(try app(#""externalPurchaseToken":{"bundleId":"b","externalPurchaseId":"SANDBOX_1"}"#).environment
            == "Sandbox")
        #expect(try app(#""externalPurchaseToken":{"bundleId":"b","externalPurchaseId":"1"}"#).environment
            == "Production")
        #expect(try app(#""appData":{"bundleId":"c","environment":"Sandbox"}"#).bundleId == "c")
        #expect(try app(#""data":{"bundleId":"d"},"summary":{"bundleId":"e"}"#).bundleId == "d")
        #expect(try app(#""version":"2.0""#) == AppleNotificationApp(bundleId: nil, appAppleId: nil, environment: nil))
    }

    @Test func renewalInfoDecodesItsFields() throws {
        let json = """
            {"originalTransactionId":"1","autoRenewProductId":"pro.yearly","productId":"pro.monthly",
             "autoRenewStatus":1,"renewalPrice":99990,"currency":"EUR","renewalDate":1702592000000,
             "isInBillingRetryPeriod":false,"eligibleWinBackOfferIds":["w1","w2"],"environment":"Sandbox"}
            """
        let renewal = try AppleRenewalInfo.decode(Array(json.utf8)).get()
        #expect(renewal.autoRenewProductId == "pro.yearly")
        #expect(renewal.renewalPrice == 99_990)
        #expect(renewal.eligibleWinBackOfferIds == ["w1", "w2"])
        #expect(renewal.renewsAt == Date(timeIntervalSince1970: 1_702_592_000))
    }
}
