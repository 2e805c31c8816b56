import COpenSSL
import Foundation

/// A set of trusted root certificates and chain verification up to them (OpenSSL's `X509_STORE`).
///
/// Immutable after `init`; `verify` may run on many threads at once (each call has its own `X509_STORE_CTX`).
/// Verification is RFC 5280 path validation as OpenSSL does it by default: signatures, validity at the given
/// instant, CA basic constraints and path length, unknown critical extensions refused. It is deliberately **not**
/// `X509_V_FLAG_X509_STRICT`: Apple's test certificates lack key identifiers, which strict mode refuses. No
/// revocation checks (no CRL or OCSP: nothing on the request path goes to the network). Partial chains are not
/// accepted: a chain must end at one of the roots, which must be self-signed.
public final class X509TrustStore: @unchecked Sendable {
    /// The trusted roots, in the order given.
    public let roots: [X509Certificate]
    private let store: OpaquePointer

    /// A store that trusts exactly `roots` (none: nothing verifies).
    public init(roots: [X509Certificate]) {
        guard let store = X509_STORE_new() else { fatalError("X509_STORE_new failed") }
        for root in roots where X509_STORE_add_cert(store, root.pointer) != 1 {
            // The only failure for a well-formed certificate is a duplicate, which changes nothing.
            ERR_clear_error()
        }
        self.store = store
        self.roots = roots
    }

    deinit {
        X509_STORE_free(store)
    }

    /// Verifies that `leaf` chains through `intermediates` (untrusted, only used as path material) to one of the
    /// roots, every certificate valid at `time` (whole seconds since 1970, UTC).
    ///
    /// On success the chain is leaf first, the trusted root last.
    public func verify(
        leaf: X509Certificate, intermediates: [X509Certificate], at time: Int64
    ) -> X509ChainVerification {
        guard let context = X509_STORE_CTX_new() else { fatalError("X509_STORE_CTX_new failed") }
        defer { X509_STORE_CTX_free(context) }
        guard let untrusted = OPENSSL_sk_new_null() else { fatalError("OPENSSL_sk_new_null failed") }
        defer { OPENSSL_sk_free(untrusted) }
        for certificate in intermediates {
            guard OPENSSL_sk_push(untrusted, UnsafeRawPointer(certificate.pointer)) > 0 else {
                fatalError("OPENSSL_sk_push failed")
            }
        }
        guard X509_STORE_CTX_init(context, store, leaf.pointer, untrusted) == 1 else {
            fatalError("X509_STORE_CTX_init failed")
        }
        // Sets X509_V_FLAG_USE_CHECK_TIME with this instant instead of the clock.
        X509_STORE_CTX_set_time(context, 0, time_t(time))
        guard X509_verify_cert(context) == 1 else {
            let code = X509_STORE_CTX_get_error(context)
            ERR_clear_error()
            let text = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "error \(code)"
            return .invalid(X509ChainFailure(code: code, message: text))
        }
        guard let stack = X509_STORE_CTX_get0_chain(context) else { fatalError("verified without a chain") }
        let chain = (0..<OPENSSL_sk_num(stack)).map { index in
            X509Certificate(retaining: OpaquePointer(OPENSSL_sk_value(stack, index)!))
        }
        return .valid(chain)
    }
}

/// The outcome of `X509TrustStore.verify`.
public enum X509ChainVerification: Sendable {
    /// The chain OpenSSL built and verified: leaf first, trusted root last.
    case valid([X509Certificate])
    /// No chain to a trusted root was valid at the instant, and OpenSSL's reason.
    case invalid(X509ChainFailure)
}

/// Why a chain did not verify: OpenSSL's `X509_V_ERR_*` code and its text.
public struct X509ChainFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The `X509_V_ERR_*` code.
    public let code: Int32
    /// OpenSSL's text for the code (`certificate has expired`, `unable to get local issuer certificate`).
    public let message: String

    /// Whether the failure is about time: a certificate of the chain expired or not yet valid at the instant.
    public var isOutsideValidity: Bool {
        code == X509_V_ERR_CERT_HAS_EXPIRED || code == X509_V_ERR_CERT_NOT_YET_VALID
    }

    public var description: String { "\(message) (X509_V_ERR \(code))" }
}
