import Foundation

/// Schema version 2 of the events that name an e-mail or IP address for lookups (docs/personal-data.md "Lookup
/// references"): version 1 carried the address's keyed hash (`emailHash`, `ipHash`), version 2 carries a random
/// reference (`emailRef`, `ipRef`, 64 hex characters) that the `lookup_refs` table maps to the hash until an erasure
/// deletes the row. Both shapes decode into the same payload type, the member of the other version absent; a reader
/// needs the hash from `emailHash` when present, else from `lookup_refs` by `emailRef`.
public enum LookupRefVersion {
    /// The schema version of these events that carries references.
    public static let current = 2

    /// Version 1 data as is (its keyed hash member is still read), version 2 as is; any other version throws.
    public static func upcast(_ data: EventJSON, from schemaVersion: Int, eventType: String) throws -> EventJSON {
        guard schemaVersion == 1 || schemaVersion == current else {
            throw EventPayloadError.noUpcast(eventType: eventType, from: schemaVersion, to: current)
        }
        return data
    }
}
