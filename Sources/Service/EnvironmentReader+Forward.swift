import Domain
import Foundation

extension EnvironmentReader {
    /// Comma-separated CIDR blocks (`NetworkAllowList.parse`); unset or empty: none.
    func networks(_ name: String) throws -> NetworkAllowList {
        switch NetworkAllowList.parse(text(name) ?? "", field: name) {
        case .success(let list): return list
        case .failure: throw ConfigurationError(variable: name, problem: "must be comma-separated CIDR blocks such "
            + "as 10.0.0.0/8 or fd00::/8 (no host bits past the prefix)")
        }
    }

    /// The path of a file this process can read; nil when unset.
    func readableFile(_ name: String) throws -> String? {
        guard let path = text(name) else { return nil }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw ConfigurationError(variable: name, problem: "must name a readable file")
        }
        return path
    }
}
