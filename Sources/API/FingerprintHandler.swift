import Commands
import Domain
import Foundation
import HTTPServer

/// The public fingerprint endpoints: capture (`POST /public/handoff/fingerprint`, called by the post-payment page's
/// script) and resolve (`POST /public/handoff/resolve-by-fingerprint`, called by the app).
enum FingerprintHandler {
    /// `POST /public/handoff/fingerprint` with `{token, screen, timezone?, language?}`: 204 whether or not anything
    /// was recorded (fingerprinting off, code spent, too late); 404 for a token that names no page; per-IP limit.
    static func capture(_ request: Request, _ context: RequestContext, _ environment: Environment) throws
        -> Response
    {
        let decision = environment.rateLimiter.check(
            environment.fingerprintCaptureLimit, key: environment.clientKey(request))
        if let refusal = APIError.refusal(for: decision) { throw refusal }
        let body = try JSONBody.decode(FingerprintCaptureRequest.self, from: request)
        let identity = try environment.identity()
        let now = environment.clock()
        guard let facts = try identity.pages.facts(token: body.token, now: now) else {
            throw APIError(status: 404, code: nil, message: "no page has this token")
        }
        let metadata = EventMetadata(actor: .system("post-payment-page"), requestId: context.requestID,
                                     correlationId: context.requestID)
        try identity.captureFingerprint.run(body.capture, for: facts, clientIP: request.clientIP,
                                userAgent: request.headers["User-Agent"], now: now, metadata: metadata)
        return Response(status: 204)
    }

    /// `POST /public/handoff/resolve-by-fingerprint`: `{"success":true,"data":{"guid","matchMethod"}}`, or the one
    /// 404 for a miss, an ambiguity, an unknown or disabled project and a foreign bundle id.
    static func resolve(_ request: Request, _ context: RequestContext, _ environment: Environment) throws
        -> Response
    {
        let decision = environment.rateLimiter.check(
            environment.resolveByFingerprintLimit, key: environment.clientKey(request))
        if let refusal = APIError.refusal(for: decision) { throw refusal }
        let body = try JSONBody.decode(ResolveByFingerprintRequest.self, from: request)
        let identity = try environment.identity()
        guard case .success(let projectID) = ProjectID.parse(body.projectId),
              let project = try environment.projects.publicProject(projectID)
        else { throw notFound }
        if let bundleId = body.bundleId {
            let expected = body.question.platform == .ios ? project.settings.iosBundleId
                : project.settings.androidPackage
            if let expected, expected != bundleId { throw notFound }
        }
        let metadata = EventMetadata(actor: .system("resolve-by-fingerprint"), requestId: context.requestID,
                                     correlationId: context.requestID)
        guard let answer = try identity.matchFingerprint.run(
            body.question, clientIP: request.clientIP, project: projectID, org: project.orgId,
            enabled: project.settings.fingerprint, now: environment.clock(), metadata: metadata)
        else { throw notFound }
        return JSONResponse.raw(
            #"{"success":true,"data":{"guid":"\#(answer.guid)","matchMethod":"\#(answer.method.rawValue)"}}"#)
    }

    /// The one public 404 of resolve-by-fingerprint (DESIGN §5: no machine code, no hint why).
    static let notFound = APIError(status: 404, code: nil, message: "no fingerprint matches")

}

/// The body of `POST /public/handoff/fingerprint`; unknown fields are refused, each refusal names its field.
struct FingerprintCaptureRequest: Decodable {
    var token: String
    var capture: CaptureFingerprint.Capture

    private static let fields: Set<String> = ["token", "screen", "timezone", "language"]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONField.self)
        try JSONBody.refuseUnknownFields(in: container, allowed: Self.fields, what: "a field of a fingerprint")
        token = try container.decode(String.self, forKey: JSONField("token"))
        guard PageTokenText.isWellFormed(token) else {
            throw APIError.validation("field 'token' must be the page token of the post-payment URL")
        }
        let screen = try refusing(ScreenSize.parse(try container.decode(String.self, forKey: JSONField("screen"))))
        let timezone = try container.decodeIfPresent(String.self, forKey: JSONField("timezone"))
            .map { try refusing(FingerprintFields.timezone($0)) }
        let language = try container.decodeIfPresent(String.self, forKey: JSONField("language"))
            .map { try refusing(FingerprintFields.language($0)) }
        capture = CaptureFingerprint.Capture(screen: screen, timezone: timezone, language: language)
    }
}

/// The body of `POST /public/handoff/resolve-by-fingerprint`: `{projectId, platform, osVersion, screen, timezone?,
/// language?, bundleId?}`; unknown fields are refused, each refusal names its field.
struct ResolveByFingerprintRequest: Decodable {
    var projectId: String
    var question: MatchFingerprint.Question
    var bundleId: String?

    private static let fields: Set<String> = [
        "projectId", "platform", "osVersion", "screen", "timezone", "language", "bundleId",
    ]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONField.self)
        try JSONBody.refuseUnknownFields(in: container, allowed: Self.fields, what: "a field of a fingerprint probe")
        projectId = try container.decode(String.self, forKey: JSONField("projectId"))
        let platform = try refusing(DevicePlatform.parse(try container.decode(String.self,
                                                                              forKey: JSONField("platform"))))
        let osVersion = try container.decode(String.self, forKey: JSONField("osVersion"))
        _ = try refusing(FingerprintFields.osVersion(osVersion))
        let screen = try refusing(ScreenSize.parse(try container.decode(String.self, forKey: JSONField("screen"))))
        let timezone = try container.decodeIfPresent(String.self, forKey: JSONField("timezone"))
            .map { try refusing(FingerprintFields.timezone($0)) }
        let language = try container.decodeIfPresent(String.self, forKey: JSONField("language"))
            .map { try refusing(FingerprintFields.language($0)) }
        bundleId = try container.decodeIfPresent(String.self, forKey: JSONField("bundleId"))
            .map { try refusing(FingerprintFields.bundleID($0)) }
        question = MatchFingerprint.Question(platform: platform, screen: screen, timezone: timezone,
                                                 language: language)
    }
}

/// The value of `result`, or its refusal as a 400 naming the field.
private func refusing<T>(_ result: Result<T, FieldRefusal>) throws -> T {
    switch result {
    case .success(let value): return value
    case .failure(let refusal): throw APIError(refusal)
    }
}
