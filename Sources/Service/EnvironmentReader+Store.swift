import Commands

extension EnvironmentReader {
    /// Comma-separated paths of PEM or DER certificate files (spaces around items ignored), read and parsed now;
    /// Apple Root CA - G3 (built in) when unset.
    func appleTrustRoots(_ name: String) throws -> AppleTrustRoots {
        guard let raw = text(name) else { return .appleRootCAG3 }
        let paths = raw.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !paths.isEmpty else {
            throw ConfigurationError(variable: name, problem: "must name at least one certificate file")
        }
        do {
            return try AppleTrustRoots.load(paths: paths)
        } catch {
            throw ConfigurationError(variable: name, problem: "\(error) (it takes comma-separated PEM or DER files)")
        }
    }
}
