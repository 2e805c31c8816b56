import Foundation

/// The six paths for one project: finds the buyer's guid on this device, asks for recovery mail, reads
/// entitlements, and marks paywall URLs with the app's identity. `Web2App` is a shared instance of it.
///
/// Safe to use from any task. Keeps the guid once found (in `configuration.storage`) and answers it at once later.
public final class Web2AppClient: Sendable {
    /// What it was made with.
    public let configuration: Web2AppConfiguration
    private let transport: HTTPTransport
    private let needEmail = Locked<(@Sendable () -> Void)?>(nil)

    static let identityKey = "identity"
    static let deviceIDKey = "device-id"

    /// A client for `configuration`.
    public init(configuration: Web2AppConfiguration) {
        self.configuration = configuration
        transport = HTTPTransport(timeout: configuration.timeout, retry: configuration.retry, log: configuration.log)
    }

    /// Called when `identify` ends with `.needsEmailFallback`: show the e-mail field. It runs on the task that
    /// called `identify`, not on the main actor.
    public var onNeedEmail: (@Sendable () -> Void)? {
        get { needEmail.withLock { $0 } }
        set { needEmail.withLock { $0 = newValue } }
    }

    /// Finds the buyer's guid: the one kept from before, else the code or install token in `deepLinkValue`
    /// (normalized: trimmed, spaces removed, upper-cased), else the device's fingerprint; when all miss,
    /// `.needsEmailFallback` (and `onNeedEmail`). A code the server does not know (spent, expired) falls through to
    /// the fingerprint, as a buyer with a stale link may still match.
    public func identify(deepLinkValue: String?) async -> IdentifyResult {
        if let kept = identity() { return .identified(kept.guid, via: kept.via) }
        if let value = deepLinkValue.flatMap(DeepLinkValue.parse) {
            let url = configuration.url("/public/handoff/resolve", query: [("code", value.token)])
            switch await resolve("GET", url, body: nil, as: ResolvedCode.self) {
            case .success(let resolved?): return remember(resolved.guid, via: value.method)
            case .success(nil): break
            case .failure(let error): return .failed(error)
            }
        }
        if let traits = await configuration.device.traits() {
            let body = try? JSONSerialization.data(withJSONObject: traits.fingerprintBody(
                projectId: configuration.projectId), options: [.sortedKeys])
            let url = configuration.url("/public/handoff/resolve-by-fingerprint")
            switch await resolve("POST", url, body: body, as: ResolvedFingerprint.self) {
            case .success(let resolved?):
                return remember(resolved.guid, via: .fingerprint(resolved.matchMethod == "ip" ? .ip : .exact))
            case .success(nil): break
            case .failure(let error): return .failed(error)
            }
        }
        // A concurrent identify (launch and a deep link at once) may have found the buyer meanwhile.
        if let kept = identity() { return .identified(kept.guid, via: kept.via) }
        onNeedEmail?()
        return .needsEmailFallback
    }

    /// Asks the server to mail the buyer a code (`POST /public/handoff/email-recovery/request`), in the first of
    /// `configuration.languages` the server writes (Russian or English). The address is trimmed; the server checks
    /// its form (`invalidRequest(code: "VALIDATION_EMAIL_FORMAT")`). Pass the code the buyer types from the mail to
    /// `identify(deepLinkValue:)`.
    public func requestEmailRecovery(email: String) async throws(Web2AppError) -> EmailRecoveryResult {
        let body = try? JSONSerialization.data(withJSONObject: [
            "projectId": configuration.projectId, "email": email.trimmingCharacters(in: .whitespacesAndNewlines),
        ], options: [.sortedKeys])
        let language = configuration.acceptLanguage.map { ["Accept-Language": $0] } ?? [:]
        let answer = try await send("POST", configuration.url("/public/handoff/email-recovery/request"), body: body,
                                    headers: language)
        guard answer.status == 204 else { throw Web2AppError.from(answer) }
        return .requested(retryAllowedAt: Date().addingTimeInterval(EmailRecoveryResult.resendInterval))
    }

    /// The buyer's entitlements now (`GET /public/entitlements`); `notIdentified` before a guid is known.
    public func entitlements() async throws(Web2AppError) -> Entitlements {
        guard let guid = identity()?.guid else { throw .notIdentified }
        let url = configuration.url("/public/entitlements", query: [
            ("projectId", configuration.projectId), ("guid", guid),
        ])
        let answer = try await send("GET", url)
        guard answer.status == 200 else {
            // The public route's 404 (unknown project) carries no code: a configuration mistake of the app.
            throw answer.status == 404 ? .invalidRequest(code: nil) : Web2AppError.from(answer)
        }
        do { return try answer.data(Entitlements.self) } catch { throw .unexpectedAnswer(status: answer.status) }
    }

    /// `url` with `origin=app` and the app's identity: the buyer's guid once known, else the library's device id
    /// (random, kept per install, never the IDFA), so a payment on that paywall lands on the id this app holds.
    public func paywallURL(_ url: URL) -> URL {
        PaywallLink.adding(id: identity()?.guid ?? deviceID, to: url)
    }

    /// The library's own device id: a random lowercase UUID made on first use and kept in the storage (so a new
    /// install gets a new one).
    public var deviceID: String {
        let storage = configuration.storage
        if let data = storage.data(forKey: Self.deviceIDKey), let id = String(data: data, encoding: .utf8) {
            return id
        }
        let id = UUID().uuidString.lowercased()
        storage.setData(Data(id.utf8), forKey: Self.deviceIDKey)
        return id
    }

    /// The guid kept by an earlier `identify`, nil before one succeeded (or after `forgetBuyer`).
    public var guid: String? { identity()?.guid }

    /// Forgets the kept guid (e.g. when the app's user signs out); the device id stays.
    public func forgetBuyer() {
        configuration.storage.setData(nil, forKey: Self.identityKey)
    }

    // MARK: - Internals

    private struct Identity: Codable {
        let guid: String
        let via: IdentifyMethod
    }

    private struct ResolvedCode: Decodable {
        let guid: String
    }

    private struct ResolvedFingerprint: Decodable {
        let guid: String
        let matchMethod: String
    }

    private func identity() -> Identity? {
        configuration.storage.data(forKey: Self.identityKey)
            .flatMap { try? JSONDecoder().decode(Identity.self, from: $0) }
    }

    private func remember(_ guid: String, via: IdentifyMethod) -> IdentifyResult {
        if let data = try? JSONEncoder().encode(Identity(guid: guid, via: via)) {
            configuration.storage.setData(data, forKey: Self.identityKey)
        }
        return .identified(guid, via: via)
    }

    /// 200 → the answer's data; 404 → nil (a miss: the next path); anything else → the error.
    private func resolve<Value: Decodable>(_ method: String, _ url: URL, body: Data?,
                                           as type: Value.Type) async -> Result<Value?, Web2AppError> {
        let answer: ServerAnswer
        do {
            answer = try await send(method, url, body: body)
        } catch {
            return .failure(error)
        }
        switch answer.status {
        case 200:
            guard let value = try? answer.data(type) else { return .failure(.unexpectedAnswer(status: 200)) }
            return .success(value)
        case 404: return .success(nil)
        default: return .failure(Web2AppError.from(answer))
        }
    }

    private func send(_ method: String, _ url: URL, body: Data? = nil,
                      headers: [String: String] = [:]) async throws(Web2AppError) -> ServerAnswer {
        do {
            return try await transport.send(method, url, body: body, headers: headers)
        } catch {
            throw Web2AppError.from(error)
        }
    }
}
