import Domain
import Foundation
import Synchronization

/// Google's OIDC signing keys for Pub/Sub push tokens, from the operator's JWKS (`GOOGLE_OIDC_JWKS`), handing out a
/// `GooglePushVerifier` for them.
///
/// Nothing is fetched: the request path never waits on Google. A file source is re-read when its modification time,
/// size or inode changed, checked at most once per `recheckInterval` (by the first call of `verifier(now:)` after it);
/// an operator refreshes the file from `https://www.googleapis.com/oauth2/v3/certs` (a cron job, see
/// docs/store-notifications.md). A file that became unreadable or invalid leaves the last good keys in use and is
/// reported by `reloadFailure` until it is fixed. Thread-safe.
public final class GoogleOIDCKeys: Sendable {
    /// Where the keys come from.
    public enum Source: Sendable, Equatable {
        /// A JWKS file, re-read when it changes.
        case file(path: String)
        /// The JWKS itself (fixed for the life of the process).
        case inline(json: String)

        /// `GOOGLE_OIDC_JWKS`: inline JSON when the value starts with `{`, else a file path.
        public init(setting: String) {
            let trimmed = setting.trimmingCharacters(in: .whitespacesAndNewlines)
            self = trimmed.hasPrefix("{") ? .inline(json: trimmed) : .file(path: trimmed)
        }
    }

    /// The least time between two checks of the file.
    public static let recheckInterval: TimeInterval = 60

    private struct State {
        var verifier: GooglePushVerifier
        var fileStamp: FileStamp?
        var lastCheck: Date
        var failure: String?
    }

    /// What identifies one version of the file.
    private struct FileStamp: Equatable {
        let modified: Date
        let size: Int
        let inode: Int
    }

    public let source: Source
    private let state: Mutex<State>

    /// Loads the keys from `source` now; throws, saying why, when they cannot be read or are not a usable JWKS.
    public init(source: Source, now: Date) throws(JSONWebKeySetError) {
        self.source = source
        switch source {
        case .inline(let json):
            let verifier = try Self.verifier(Array(json.utf8))
            state = Mutex(State(verifier: verifier, fileStamp: nil, lastCheck: now, failure: nil))
        case .file(let path):
            let (verifier, stamp) = try Self.read(path)
            state = Mutex(State(verifier: verifier, fileStamp: stamp, lastCheck: now, failure: nil))
        }
    }

    /// The verifier for the current keys; for a file source, first re-reads the file if it changed and the last check
    /// is `recheckInterval` or more before `now`.
    public func verifier(now: Date) -> GooglePushVerifier {
        guard case .file(let path) = source else { return state.withLock { $0.verifier } }
        let (due, known) = state.withLock { state -> (Bool, FileStamp?) in
            guard now.timeIntervalSince(state.lastCheck) >= Self.recheckInterval || now < state.lastCheck else {
                return (false, nil)
            }
            state.lastCheck = now
            return (true, state.fileStamp)
        }
        guard due else { return state.withLock { $0.verifier } }
        // The file is read outside the lock; other threads keep the current verifier meanwhile.
        let stamp = Self.stamp(path)
        guard stamp == nil || stamp != known else { return state.withLock { $0.verifier } }
        let result: Result<(GooglePushVerifier, FileStamp), JSONWebKeySetError>
        do {
            result = .success(try Self.read(path))
        } catch {
            result = .failure(error)
        }
        return state.withLock { state in
            switch result {
            case .success(let (verifier, newStamp)):
                state.verifier = verifier
                state.fileStamp = newStamp
                state.failure = nil
            case .failure(let error):
                // Remember the bad version so it is not parsed again every minute; keep the last good keys.
                state.fileStamp = stamp ?? state.fileStamp
                state.failure = error.message
            }
            return state.verifier
        }
    }

    /// Why the last re-read of the file failed (the last good keys are still used), or nil.
    public var reloadFailure: String? { state.withLock { $0.failure } }

    /// The `kid`s of the keys in use.
    public var keyIDs: [String] { state.withLock { $0.verifier.keyIDs } }

    private static func read(_ path: String) throws(JSONWebKeySetError) -> (GooglePushVerifier, FileStamp) {
        guard let stamp = stamp(path), let data = FileManager.default.contents(atPath: path) else {
            throw JSONWebKeySetError("cannot read the file \(path)")
        }
        guard data.count <= JSONWebKeySet.maxBytes else {
            throw JSONWebKeySetError("the file \(path) is larger than \(JSONWebKeySet.maxBytes) bytes")
        }
        return (try verifier([UInt8](data)), stamp)
    }

    private static func verifier(_ bytes: [UInt8]) throws(JSONWebKeySetError) -> GooglePushVerifier {
        switch JSONWebKeySet.parse(bytes) {
        case .success(let set): return try GooglePushVerifier(jwks: set)
        case .failure(let error): throw error
        }
    }

    private static func stamp(_ path: String) -> FileStamp? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let modified = attributes[.modificationDate] as? Date,
              let size = (attributes[.size] as? NSNumber)?.intValue else { return nil }
        let inode = (attributes[.systemFileNumber] as? NSNumber)?.intValue ?? 0
        return FileStamp(modified: modified, size: size, inode: inode)
    }
}
