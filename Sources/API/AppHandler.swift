import Commands
import Domain
import Foundation
import HTTPServer

/// `/s2s/v1/apps…`: the key's project's apps. An app of another project or organization is answered 404, exactly as
/// an id no app has.
enum AppHandler {
    /// `POST /s2s/v1/apps` → 201, the app with `storeToken` and `storeUrls` (the only time the token is shown).
    static func create(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let tenant = try context.tenant()
        let draft = try JSONBody.decode(AppBody.Create.self, from: request).draft
        do {
            let created = try environment.apps().createApp.run(project: tenant.projectId, org: tenant.orgId,
                                                               draft: draft, metadata: metadata(tenant, context))
            return try JSONResponse.encode(withToken(created, environment), status: 201)
        } catch let refusal as Refusal where refusal.kind == .notFound {
            // The key's own project is gone (deleted under a live key): the key speaks for nothing.
            throw APIError.unauthorized("the secret key is unknown or revoked")
        }
    }

    /// `GET /s2s/v1/apps` → `{"apps":[…]}`, oldest first.
    static func list(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let tenant = try context.tenant()
        let apps = try environment.apps().lookup.apps(project: tenant.projectId, org: tenant.orgId)
        return try JSONResponse.encode(["apps": apps])
    }

    /// `GET /s2s/v1/apps/{appId}`.
    static func show(_ request: Request, _ context: RequestContext, _ environment: Environment, appId text: String)
        throws -> Response
    {
        let scope = try scope(text, context)
        guard let app = try environment.apps().lookup.app(scope.app, org: try context.tenant().orgId,
                                                          project: scope.project) else { throw notFound }
        return try JSONResponse.encode(app)
    }

    /// `PATCH /s2s/v1/apps/{appId}`: the app as it now is. The app's fields change first (their refusals come from
    /// the app's state), then the `ingest` settings (checked before either), each in its own transaction.
    static func update(_ request: Request, _ context: RequestContext, _ environment: Environment, appId text: String)
        throws -> Response
    {
        let scope = try scope(text, context)
        let patch = try JSONBody.decode(AppBody.Patch.self, from: request)
        let metadata = metadata(try context.tenant(), context)
        var app = try environment.apps().updateApp.run(scope, change: patch.change, metadata: metadata)
        if let ingest = patch.ingest {
            _ = try environment.model.ingest.changeSettings.run(
                scope, changes: ingest.changes, field: IngestSettingsBody.field, metadata: metadata)
            guard let read = try environment.apps().lookup.app(scope.app, org: try context.tenant().orgId,
                                                               project: scope.project) else { throw notFound }
            app = read
        }
        return try JSONResponse.encode(app)
    }

    /// `POST /s2s/v1/apps/{appId}/store-token`: the app with its new `storeToken` and `storeUrls`; any body is
    /// ignored.
    static func rotateToken(_ request: Request, _ context: RequestContext, _ environment: Environment,
                            appId text: String) throws -> Response {
        let scope = try scope(text, context)
        let rotated = try environment.apps().rotateStoreToken.run(scope, metadata: metadata(try context.tenant(),
                                                                                            context))
        return try JSONResponse.encode(withToken(rotated, environment))
    }

    /// The command scope of `appId` for the key: its org and project; a malformed id is 400.
    static func scope(_ text: String, _ context: RequestContext) throws -> AppCommandScope {
        let tenant = try context.tenant()
        switch AppID.parse(text) {
        case .success(let app): return AppCommandScope(app: app, org: tenant.orgId, project: tenant.projectId)
        case .failure(let refusal): throw APIError(refusal)
        }
    }

    static func metadata(_ tenant: ProjectLookup.KeyHolder, _ context: RequestContext) -> EventMetadata {
        EventMetadata(actor: .key(prefix: tenant.prefix), requestId: context.requestID,
                      correlationId: context.requestID)
    }

    static let notFound = APIError(status: 404, code: .notFound, message: "no app has this id")

    private static func withToken(_ created: CreateApp.Created, _ environment: Environment) -> AppWithToken {
        AppWithToken(app: created.app, storeToken: created.storeToken.text,
                     storeUrls: StoreURLs(base: environment.publicBaseURL, token: created.storeToken))
    }
}

/// An app with its store token and URLs: the answer of creation and rotation.
struct AppWithToken: Encodable {
    var app: AppLookup.App
    var storeToken: String
    var storeUrls: StoreURLs

    private enum CodingKeys: String, CodingKey { case storeToken, storeUrls }

    func encode(to encoder: any Encoder) throws {
        try app.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(storeToken, forKey: .storeToken)
        try container.encode(storeUrls, forKey: .storeUrls)
    }
}
