/// Each route's operation in `/openapi.json`: the switch is exhaustive, so a new route does not compile until it
/// says what it takes and answers.
extension Route {
    var operation: OpenAPIOperation {
        switch self {
        case .healthz: return OpsOperations.healthz
        case .readyz: return OpsOperations.readyz
        case .openAPI: return OpsOperations.openAPI
        case .docs: return OpsOperations.docs
        case .docsScript: return OpsOperations.docsScript
        case .project: return ProjectOperations.show
        case .updateProject: return ProjectOperations.update
        case .createUser: return BuyerOperations.createUser
        case .user: return BuyerOperations.user
        case .userEntitlements: return BuyerOperations.entitlements
        case .events: return BuyerOperations.events
        case .createPayment: return PaymentOperations.create
        case .refundPayment: return PaymentOperations.refund
        case .publicEntitlements: return PublicOperations.entitlements
        case .paywallBuyer: return PublicOperations.paywallBuyer
        case .postPaymentPage: return PublicOperations.postPaymentPage
        case .captureFingerprint: return FingerprintOperations.capture
        case .resolveByFingerprint: return FingerprintOperations.resolve
        case .resolveCode: return PublicOperations.resolveCode
        case .emailRecoveryRequest: return PublicOperations.emailRecovery
        }
    }
}
