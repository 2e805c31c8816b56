import Domain
import EventStore
import Foundation
import Postgres

/// Folds `AppInstallTierResolved` (the Apple Ads resolver) into `app_installs`, for `InstallProjection`: a `pending`
/// install takes its final tier and Apple's record, and its AdServices token is dropped (it served its purpose).
enum AppleAdsTierProjection {
    static func apply(_ event: RecordedEvent, on connection: Connection, table: String) throws {
        let resolved = try event.decode(AppInstallTierResolved.self)
        try connection.query("""
            UPDATE \(table) SET tier = $3, apple_ads_attribution = $4, apple_ads_token = NULL
            WHERE app_id = $1::uuid AND install_hash = $2 AND tier = 'pending'
            """, [.text(resolved.appId), .text(resolved.installHash), .text(resolved.tier.rawValue),
                  .optional(resolved.attribution)])
    }
}
