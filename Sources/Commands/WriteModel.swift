import EventStore
import Foundation
import Postgres

/// The write model as the API and the CLI use it: every command handler and read model, built once at start-up
/// over one connection pool (the application role).
///
/// The identity commands (buyers, payments, codes, fingerprints, recovery) need the identity secrets; without them
/// `identity` is nil and the edge answers 503 on those routes.
public struct WriteModel: Sendable {
    /// The log every command appends to, with the product projections.
    public let log: EventLog
    /// Projects and secret keys.
    public let projects: ProjectLookup
    public let createOrganization: CreateOrganization
    public let createProject: CreateProject
    public let updateProject: UpdateProject
    public let createSecretKey: CreateSecretKey
    public let revokeSecretKeys: RevokeSecretKeys
    /// Signed chain heads and audit keys (reads).
    public let audit: AuditTrail
    /// The buyer-identity commands and reads; nil without the identity secrets.
    public let identity: IdentityModel?
    /// The app commands and reads; nil without the identity secrets (they seal app secrets).
    public let apps: AppModel?
    /// Affiliate programs, link clicks and bind (clicks and binds take the pass keys from their caller).
    public let affiliates: AffiliateModel
    /// The surface commands and reads (forwarded App Store notifications); nil without the identity secrets.
    public let surfaces: SurfaceModel?
    /// Where feeds, reports and entitlement lookups read (`DATABASE_READ_URL`, read-your-writes).
    public let reads: ReadRouting
    /// Buyer and payment timelines with their verdicts (diagnostics; read the log, no secrets needed).
    public let timelines: BuyerTimelines
    /// App ingest (`/v1/m/*`): publishable keys and AppConfig.
    public let ingest: IngestModel
    /// Go links and their clicks (issue 21).
    public let links: LinkModel

    /// The write model over `pool`; `sweep` is the fingerprint sweep's schedule (tests pass their own);
    /// `commandBatch` bounds how many concurrent commands of one org share a transaction (`EventLog`; 1 = off).
    public init(pool: Pool, secrets: IdentitySecrets?, sweep: FingerprintSweep = FingerprintSweep(),
                forwardAddresses: ForwardAddresses = ForwardAddresses(), commandBatch: Int = 16,
                reads: ReadRouting? = nil) {
        self.reads = reads ?? ReadRouting(primary: pool)
        let log = EventLog(pool: pool, projections: ProjectionRegistry.service, commandBatch: commandBatch)
        self.log = log
        self.projects = ProjectLookup(pool: pool)
        self.createOrganization = CreateOrganization(log: log)
        self.createProject = CreateProject(log: log)
        self.updateProject = UpdateProject(log: log)
        self.createSecretKey = CreateSecretKey(log: log)
        self.revokeSecretKeys = RevokeSecretKeys(log: log)
        self.affiliates = AffiliateModel(log: log)
        self.audit = AuditTrail(log: log)
        self.timelines = BuyerTimelines(log: log)
        self.ingest = IngestModel(log: log)
        self.links = LinkModel(log: log)
        let projects = self.projects
        self.apps = secrets.map { AppModel(log: log, masterKeys: $0.masterKeys, forwardAddresses: forwardAddresses) }
        self.surfaces = secrets.map { SurfaceModel(log: log, masterKeys: $0.masterKeys) }
        self.identity = secrets.map {
            IdentityModel(IdentityContext(log: log, secrets: $0), projects: projects, sweep: sweep)
        }
    }

    /// Throws unless Postgres answers a ping on a pooled connection within `timeout` seconds (for `/readyz`).
    public func checkDatabase(timeout: Double) throws {
        try log.pool.withConnection { try $0.ping(timeout: timeout) }
    }

    /// Closes the pool's connections (at shutdown).
    public func close() {
        log.pool.close()
        reads.replica?.close()
    }
}

/// The commands and reads that need the identity secrets.
public struct IdentityModel: Sendable {
    /// The shared log, keys and code minter.
    public let context: IdentityContext
    public let createBuyer: CreateBuyer
    public let eraseBuyer: EraseBuyer
    public let buyers: BuyerLookup
    public let recordPayment: RecordPayment
    public let refundPayment: RefundPayment
    public let redeemCode: RedeemCode
    public let pages: PostPaymentPageFacts
    public let recordPageOpened: RecordPageOpened
    public let captureFingerprint: CaptureFingerprint
    public let matchFingerprint: MatchFingerprint
    public let requestEmailRecovery: RequestEmailRecovery
    public let history: OrgHistory
    /// App leads (`POST /v1/m/lead`) and their S2S read: contact data is sealed, so they need the secrets.
    public let recordAppLead: RecordAppLead
    public let appLeads: AppLeadLookup
    /// Install erasure, by the device (`POST /v1/m/erase`) or the project's server: it destroys personal-data keys.
    public let eraseInstall: EraseInstall
    /// Installs and their tier (`POST /v1/m/install`): journey keys are sealed for the install.
    public let recordInstall: RecordInstall

    /// The identity model over `context`.
    public init(_ context: IdentityContext, projects: ProjectLookup, sweep: FingerprintSweep) {
        self.context = context
        self.createBuyer = CreateBuyer(context)
        self.eraseBuyer = EraseBuyer(context)
        self.buyers = BuyerLookup(pool: context.log.pool)
        self.recordPayment = RecordPayment(context)
        self.refundPayment = RefundPayment(log: context.log)
        self.redeemCode = RedeemCode(context)
        self.pages = PostPaymentPageFacts(context, projects: projects)
        self.recordPageOpened = RecordPageOpened(log: context.log)
        self.captureFingerprint = CaptureFingerprint(context, sweep: sweep)
        self.matchFingerprint = MatchFingerprint(context, sweep: sweep)
        self.requestEmailRecovery = RequestEmailRecovery(context)
        self.history = OrgHistory(context)
        self.recordAppLead = RecordAppLead(context)
        self.appLeads = AppLeadLookup(context)
        self.eraseInstall = EraseInstall(context)
        self.recordInstall = RecordInstall(context)
    }

    /// The secrets (pass keys for the paywall, the pepper for IP hashes at the edge).
    public var secrets: IdentitySecrets { context.secrets }
}
