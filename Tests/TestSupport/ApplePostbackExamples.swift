/// Apple's published example postbacks, byte for byte as its documentation prints them (docs/postbacks.md cites the
/// pages); every `attribution-signature` here verifies with Apple's production key, and `aakDevelopment`'s JWS with
/// `apple-development-identifier/1`. `aakProductionKid`'s JWS names the production key but does not verify with it.
public enum ApplePostbackExamples {
    /// "Combining parameters for SKAdNetwork 3 postbacks": a winning version 3 postback.
    public static let skan3Winning = """
        {
          "version": "3.0",
          "ad-network-id": "example123.skadnetwork",
          "campaign-id": 42,
          "transaction-id": "6aafb7a5-0170-41b5-bbe4-fe71dedf1e28",
          "app-id": 525463029,
          "attribution-signature": \
        "MEYCIQD5eq3AUlamORiGovqFiHWI4RZT/PrM3VEiXUrsC+M51wIhAPMANZA9c07raZJ64gVaXhB9+9yZj/X6DcNxONdccQij",
          "redownload": true,
          "source-app-id": 1234567891,
          "fidelity-type": 1,
          "conversion-value": 20,
          "did-win": true
        }
        """

    /// The same page: a version 3 postback that did not win (no `source-app-id`, no conversion value).
    public static let skan3NotWinning = """
        {
          "version": "3.0",
          "ad-network-id": "example123.skadnetwork",
          "campaign-id": 42,
          "transaction-id": "f9ac267a-a889-44ce-b5f7-0166d11461f0",
          "app-id": 525463029,
          "attribution-signature": \
        "MEUCIQDDetUtkyc/MiQvVJ5I6HIO1E7l598572Wljot2Onzd4wIgVJLzVcyAV+TXksGNoa0DTMXEPgNPeHCmD4fw1ABXX0g=",
          "redownload": true,
          "fidelity-type": 1,
          "did-win": false
        }
        """

    /// "Verifying an install-validation postback": a first version 4 postback from a web ad, high data tier.
    public static let skan4High = """
        {
          "version": "4.0",
          "ad-network-id": "com.example",
          "source-identifier": "5239",
          "app-id": 525463029,
          "transaction-id": "6aafb7a5-0170-41b5-bbe4-fe71dedf1e30",
          "redownload": false,
          "source-domain": "example.com",
          "fidelity-type": 1,
          "did-win": true,
          "conversion-value": 63,
          "postback-sequence-index": 0,
          "attribution-signature": \
        "MEUCIGRmSMrqedNu6uaHyhVcifs118R5z/AB6cvRaKrRRHWRAiEAv96ne3dKQ5kJpbsfk4eYiePmrZUU6sQmo+7zfP/1Bxo="
        }
        """

    /// The same page: a first version 4 postback from a web ad, low data tier (two-digit source identifier).
    public static let skan4Low = """
        {
          "version": "4.0",
          "ad-network-id": "com.example",
          "source-identifier": "39",
          "app-id": 525463029,
          "transaction-id": "6aafb7a5-0170-41b5-bbe4-fe71dedf1e31",
          "redownload": false,
          "source-domain": "example.com",
          "fidelity-type": 1,
          "did-win": true,
          "coarse-conversion-value": "high",
          "postback-sequence-index": 0,
          "attribution-signature": \
        "MEUCIQD4rX6eh38qEhuUKHdap345UbmlzA7KEZ1bhWZuYM8MJwIgMnyiiZe6heabDkGwOaKBYrUXQhKtF3P/ERHqkR/XpuA="
        }
        """

    /// AdAttributionKit's "Identifying the parameters in a postback": the stanza, its JWS signed with
    /// `apple-development-identifier/1` (advertised item 10738027756, source identifier 1234).
    public static let aakDevelopment = """
        {
          "jws-string": "\(aakDevelopmentJWS)",
          "conversion-value": 24,
          "ad-interaction-type": "click",
          "country-code": "US"
        }
        """

    public static let aakDevelopmentJWS =
        "eyJraWQiOiJhcHBsZS1kZXZlbG9wbWVudC1pZGVudGlmaWVyXC8xIiwiYWxnIjoiRVMyNTYifQ."
        + "eyJwb3N0YmFjay1pZGVudGlmaWVyIjoiODU1NDZFQjctRkQzOS00NEJDLTg5OTAtQzk4QTRBQzM2QTQ5IiwicHVibGlzaGVyLWl0ZW0t"
        + "aWRlbnRpZmllciI6MCwibWFya2V0cGxhY2UtaWRlbnRpZmllciI6ImNvbS5hcHBsZS5BcHBTdG9yZSIsImltcHJlc3Npb24tdHlwZSI6"
        + "ImFwcC1pbXByZXNzaW9uIiwiYWQtbmV0d29yay1pZGVudGlmaWVyIjoiZGV2ZWxvcG1lbnQuYWRhdHRyaWJ1dGlvbmtpdCIsImRpZC13"
        + "aW4iOnRydWUsInBvc3RiYWNrLXNlcXVlbmNlLWluZGV4IjowLCJjb252ZXJzaW9uLXR5cGUiOiJyZS1lbmdhZ2VtZW50Iiwic291cmNl"
        + "LWlkZW50aWZpZXIiOiIxMjM0IiwiYWR2ZXJ0aXNlZC1pdGVtLWlkZW50aWZpZXIiOjEwNzM4MDI3NzU2fQ."
        + "bAdNwKd6OfHK9tofvjjua4X_JPcFTxXPQSspD9gZkinw97pY7R1aI-LSjl-oxZZF3_K2H5JK5TSEBee4_1U4oQ"

    /// An earlier version of the same page: a stanza whose JWS names `apple-cas-identifier/0` (production) but whose
    /// signature that key did not make — an illustration, so a forged production postback for the tests.
    public static let aakProductionKid = """
        {
          "ad-interaction-type": "click",
          "jws-string": "\(aakProductionKidJWS)",
          "coarse-conversion-value": "medium"
        }
        """

    public static let aakProductionKidJWS =
        "eyJraWQiOiJhcHBsZS1jYXMtaWRlbnRpZmllci8wIiwiYWxnIjoiRVMyNTYifQ."
        + "eyJhZHZlcnRpc2VkLWl0ZW0taWRlbnRpZmllciI6Njg0OTM5LCJjb252ZXJzaW9uLXR5cGUiOiJyZS1lbmdhZ2VtZW50IiwibWFya2V0"
        + "cGxhY2UtaWRlbnRpZmllciI6ImNvbS5hcHBsZS5BcHBTdG9yZSIsImFkLW5ldHdvcmstaWRlbnRpZmllciI6InRlc3QuYWRhdHRyaWJ1"
        + "dGlvbmtpdCIsImltcHJlc3Npb24tdHlwZSI6ImFwcC1pbXByZXNzaW9uIiwicG9zdGJhY2stc2VxdWVuY2UtaW5kZXgiOjAsInNvdXJj"
        + "ZS1pZGVudGlmaWVyIjoiODM0NCIsImRpZC13aW4iOnRydWUsInBvc3RiYWNrLWlkZW50aWZpZXIiOiIzZjUwZmU1Ny0yOWFlLTQ4NjEt"
        + "OGMwYi1hYzZhZGRkZmY3MmMiLCJwdWJsaXNoZXItaXRlbS1pZGVudGlmaWVyIjo1ODM4NDkyfQ."
        + "AemK1x2ahIPKOnFEEscG4wvipRtR1G6DzpNF4M4joPb8POIH4FJjm4VvcNgLXc9rWBrEDQPvDblduoc7MFcK5w"
}
