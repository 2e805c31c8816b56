import EventStore
/// The inline projections the service runs: what `serve` and `work` hand to `EventLog` and what `handoff replay`
/// rebuilds. Keep them in one list so the two can never disagree.
public enum ProjectionRegistry {
    /// The service's projections, in the order appends apply them.
    public static let service: [any InlineProjection] = [
        TenantProjection(), BuyerProjection(), PaymentProjection(), FingerprintProjection(), AppProjection(),
        StoreProjection(), DeliveryProjection(),
        SurfaceProjection(), AffiliateProjection(), CommissionProjection(),
        AuditorProjection(), ErasureProjection(),
        IngestProjection(),
        AppLeadProjection(),
        InstallProjection(),
        LinkProjection(),
    ]
}
