import Foundation

/// `PersistentStorage` as one file per key in a folder: the default for the guid and the device id (kept per
/// install, so deleting the app forgets them), and the token store's storage where there is no Keychain (Linux).
public struct FileStorage: PersistentStorage {
    /// The folder holding the files; created on the first write.
    public let directory: URL

    /// A storage in `directory`.
    public init(directory: URL) {
        self.directory = directory
    }

    /// `Application Support/HandoffKit/<name>` of the current user (inside the app's container on iOS).
    public static func standard(_ name: String = "default") -> FileStorage {
        let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return FileStorage(directory: base.appendingPathComponent("HandoffKit", isDirectory: true)
            .appendingPathComponent(name, isDirectory: true))
    }

    public func data(forKey key: String) -> Data? {
        try? Data(contentsOf: file(key))
    }

    public func setData(_ data: Data?, forKey key: String) {
        guard let data else {
            try? FileManager.default.removeItem(at: file(key))
            return
        }
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? data.write(to: file(key), options: .atomic)
    }

    private func file(_ key: String) -> URL {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
        let safe = String(key.map { allowed.contains($0) ? $0 : "_" })
        return directory.appendingPathComponent(safe, isDirectory: false)
    }
}

/// `PersistentStorage` in memory, gone with the process: for previews and tests.
public final class InMemoryStorage: PersistentStorage {
    private let values = Locked<[String: Data]>([:])

    /// An empty storage.
    public init() {}

    public func data(forKey key: String) -> Data? {
        values.withLock { $0[key] }
    }

    public func setData(_ data: Data?, forKey key: String) {
        values.withLock { $0[key] = data }
    }
}
