/// Certificates made for these tests with the `openssl` command line on 2026-12-01 (valid from then until 2032 or
/// 2051), beside Apple's fixtures: a rogue chain that looks like the test chain but ends at a root nobody configured,
/// a P-384 leaf and a leaf directly under the test root, both issued with the fixture keys. PEM text.
public enum ExtraChains {
    /// A self-signed root named like the test root, with a key of its own: never configured.
    public static let rogueRoot = """
        -----BEGIN CERTIFICATE-----
        MIIBsjCCAVigAwIBAgIUdOkfnMCKE2oF3h979zt7Oz69wlUwCgYIKoZIzj0EAwIw
        NjELMAkGA1UEBhMCVVMxEzARBgNVBAgMCkNhbGlmb3JuaWExEjAQBgNVBAcMCUN1
        cGVydGlubzAgFw0yNjEyMDExNzE0NDhaGA8yMDUxMDcyMzE3MTQ0OFowNjELMAkG
        A1UEBhMCVVMxEzARBgNVBAgMCkNhbGlmb3JuaWExEjAQBgNVBAcMCUN1cGVydGlu
        bzBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABNnWbrs0Yr+fj/iZIRCxlJOaOYfh
        tuYUu8ogbEQ3ihvkCfrfcLwYrvg5AAxQirLfd38V2Daro7my4gVngNYI5KWjQjBA
        MA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgEGMB0GA1UdDgQWBBQFmg7y
        7T3hKh9vqb4WwQyUzhRhEjAKBggqhkjOPQQDAgNIADBFAiEAx8Mz+ajtXPVK1iZN
        o/AKUfKG3Op1POC0MEfIW+9KsuACIHVpZYZ3zZRSZdHKDMC2j4vSn93KF+4qBShs
        uQRQwsCI
        -----END CERTIFICATE-----
        """

    /// An intermediate under the rogue root, with the WWDR intermediate OID.
    public static let rogueIntermediate = """
        -----BEGIN CERTIFICATE-----
        MIIB5DCCAYqgAwIBAgIBFTAKBggqhkjOPQQDAjA2MQswCQYDVQQGEwJVUzETMBEG
        A1UECAwKQ2FsaWZvcm5pYTESMBAGA1UEBwwJQ3VwZXJ0aW5vMCAXDTI2MTIwMTE3
        MTQ0OFoYDzIwNTEwNzEzMTcxNDQ4WjBFMQswCQYDVQQGEwJVUzELMAkGA1UECAwC
        Q0ExEjAQBgNVBAcMCUN1cGVydGlubzEVMBMGA1UECgwMSW50ZXJtZWRpYXRlMFkw
        EwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEhZfP7KaWaztyEAMpBM7a15aS1ZjdKFGe
        7wh7ljWDzrS7dcuAwjOgsJxwD10HIrnDqkF4VNw7vt7ucRn+qHI4LqN4MHYwEgYD
        VR0TAQH/BAgwBgEB/wIBADAOBgNVHQ8BAf8EBAMCAQYwEAYKKoZIhvdjZAYCAQQC
        BQAwHQYDVR0OBBYEFPFmjCbXNf7x9GunkGPERFpF0p5AMB8GA1UdIwQYMBaAFAWa
        DvLtPeEqH2+pvhbBDJTOFGESMAoGCCqGSM49BAMCA0gAMEUCIDTJ93S+5x6oLz3d
        /T2OfzbRFm+flPydJhfYhWFq5KPRAiEAz5VNlixaHq6GMd9XZS/doU3aM7ZbO5tF
        qt0z1qkBqZI=
        -----END CERTIFICATE-----
        """

    /// A leaf under the rogue intermediate, with the receipt-signing OID.
    public static let rogueLeaf = """
        -----BEGIN CERTIFICATE-----
        MIIB4zCCAYigAwIBAgIBFjAKBggqhkjOPQQDAjBFMQswCQYDVQQGEwJVUzELMAkG
        A1UECAwCQ0ExEjAQBgNVBAcMCUN1cGVydGlubzEVMBMGA1UECgwMSW50ZXJtZWRp
        YXRlMCAXDTI2MTIwMTE3MTQ0OFoYDzIwNTEwNzAzMTcxNDQ4WjA9MQswCQYDVQQG
        EwJVUzELMAkGA1UECAwCQ0ExEjAQBgNVBAcMCUN1cGVydGlubzENMAsGA1UECgwE
        TGVhZjBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABBKrNg3yR1M+MFg3aYlIOO8K
        91fzbOH9DgzsS4LHg0zypjJ4zu8+/VpXF+/cbqtto1orSnT9KAoGkUFjmMuOMs+j
        bzBtMAkGA1UdEwQCMAAwDgYDVR0PAQH/BAQDAgeAMBAGCiqGSIb3Y2QGCwEEAgUA
        MB0GA1UdDgQWBBTWqzjfa96pn4Jm7f+/PEN+7Sv+2DAfBgNVHSMEGDAWgBTxZowm
        1zX+8fRrp5BjxERaRdKeQDAKBggqhkjOPQQDAgNJADBGAiEA1tjrwFNNNlDCxpGO
        oehYXBEgAqpvrZDSvPSYCLKmGUMCIQCWfFyhNuqRnTubDM78ipxHscl8Oj80hI4F
        oJy/FpPRBA==
        -----END CERTIFICATE-----
        """

    /// The rogue leaf's key.
    public static let rogueLeafKey = """
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEICp6xGYlVftTxlnc7+RIx+sPZV7HTsgp6u5qd2FnS/PcoAoGCCqGSM49
        AwEHoUQDQgAEEqs2DfJHUz4wWDdpiUg47wr3V/Ns4f0ODOxLgseDTPKmMnjO7z79
        WlcX79xuq22jWitKdP0oCgaRQWOYy44yzw==
        -----END EC PRIVATE KEY-----
        """

    /// A leaf with the receipt-signing OID under the real test intermediate, but with a P-384 key.
    public static let p384Leaf = """
        -----BEGIN CERTIFICATE-----
        MIICKzCCAdGgAwIBAgIBFzAKBggqhkjOPQQDAjBFMQswCQYDVQQGEwJVUzELMAkG
        A1UECAwCQ0ExEjAQBgNVBAcMCUN1cGVydGlubzEVMBMGA1UECgwMSW50ZXJtZWRp
        YXRlMB4XDTI2MTIwMTE3MTQ0OFoXDTMyMDUyMzE3MTQ0OFowQDELMAkGA1UEBhMC
        VVMxCzAJBgNVBAgMAkNBMRIwEAYDVQQHDAlDdXBlcnRpbm8xEDAOBgNVBAoMB0xl
        YWYzODQwdjAQBgcqhkjOPQIBBgUrgQQAIgNiAAQJ6xcy4iwno/BH8RDR9NTBnNA1
        Gwsdt9kDocHn8+Fg/4NX80Eg/ccIOa4kOuCdmK9vemMowsSERjpChBCgj/vhLSqs
        GbTpcb4nWO+TTbTTMtc8cZfHgQjxnfLbpadg6j2jgZkwgZYwCQYDVR0TBAIwADAO
        BgNVHQ8BAf8EBAMCB4AwEAYKKoZIhvdjZAYLAQQCBQAwHQYDVR0OBBYEFJ0dqqga
        P1AIqnbj5bDx2ahJ4rcHMEgGA1UdIwRBMD+hOqQ4MDYxCzAJBgNVBAYTAlVTMRMw
        EQYDVQQIDApDYWxpZm9ybmlhMRIwEAYDVQQHDAlDdXBlcnRpbm+CAQswCgYIKoZI
        zj0EAwIDSAAwRQIhAJDLaZNfBGmaJkQdc906nhnETeA6b0f7isQT0TCOKGCMAiB6
        VN5tauCa4JcdyXBm9qd99+9mZFM7v8m06kEddgu9Wg==
        -----END CERTIFICATE-----
        """

    /// The P-384 leaf's key.
    public static let p384LeafKey = """
        -----BEGIN EC PRIVATE KEY-----
        MIGkAgEBBDCwkZRlLZKulYewcuZdhp3OLQK1eWWZwJLLmyhdiu+RxYdFYlRRgr90
        bwlON0g/UkmgBwYFK4EEACKhZANiAAQJ6xcy4iwno/BH8RDR9NTBnNA1Gwsdt9kD
        ocHn8+Fg/4NX80Eg/ccIOa4kOuCdmK9vemMowsSERjpChBCgj/vhLSqsGbTpcb4n
        WO+TTbTTMtc8cZfHgQjxnfLbpadg6j0=
        -----END EC PRIVATE KEY-----
        """

    /// A leaf with the receipt-signing OID issued directly by the test root (the test leaf's key): a chain of two.
    public static let leafUnderRoot = """
        -----BEGIN CERTIFICATE-----
        MIICDTCCAbOgAwIBAgIBGDAKBggqhkjOPQQDAjA2MQswCQYDVQQGEwJVUzETMBEG
        A1UECAwKQ2FsaWZvcm5pYTESMBAGA1UEBwwJQ3VwZXJ0aW5vMB4XDTI2MTIwMTE3
        MTQ0OFoXDTMyMDUyMzE3MTQ0OFowRjELMAkGA1UEBhMCVVMxCzAJBgNVBAgMAkNB
        MRIwEAYDVQQHDAlDdXBlcnRpbm8xFjAUBgNVBAoMDUxlYWZVbmRlclJvb3QwWTAT
        BgcqhkjOPQIBBggqhkjOPQMBBwNCAATitYHEaYVuc8g9AjTOwErMvGyPykPa+puv
        TI8hJTHZZDLGas2qX1+ErxgQTJgVXv76nmLhhRJH+j25AiAI8iGso4GhMIGeMAkG
        A1UdEwQCMAAwDgYDVR0PAQH/BAQDAgeAMBAGCiqGSIb3Y2QGCwEEAgUAMB0GA1Ud
        DgQWBBS5mng2paIwj8DYikURKEzi0KcDizBQBgNVHSMESTBHoTqkODA2MQswCQYD
        VQQGEwJVUzETMBEGA1UECAwKQ2FsaWZvcm5pYTESMBAGA1UEBwwJQ3VwZXJ0aW5v
        ggkAtRzkAuIfmlswCgYIKoZIzj0EAwIDSAAwRQIgH/Su1LDh4Y3vl9iVAKYMM8wA
        9nPtVOHAounzZkBf52oCIQCFzsZ/MACn9LT0PW8lJUrBt6UXXC+Z+7xnAgpZBlF5
        ag==
        -----END CERTIFICATE-----
        """
}
