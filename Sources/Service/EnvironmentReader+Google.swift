import Commands
import Foundation

extension EnvironmentReader {
    /// `GOOGLE_OIDC_JWKS`: Google's OIDC keys for Play push tokens, inline JSON (a value starting with `{`) or the path
    /// of a JWKS file; nil when unset. The keys are loaded once here, so a missing file or a bad key set stops the
    /// start with the reason (a path or public keys: nothing secret is echoed).
    func googleOIDCKeys(_ name: String) throws -> GoogleOIDCKeys.Source? {
        guard let raw = text(name) else { return nil }
        let source = GoogleOIDCKeys.Source(setting: raw)
        do {
            _ = try GoogleOIDCKeys(source: source, now: Date())
        } catch {
            throw ConfigurationError(variable: name, problem: "must be Google's JWKS (https://www.googleapis.com/"
                + "oauth2/v3/certs) as a file path or inline JSON: \(error.message)")
        }
        return source
    }
}
