import Commands
import Telemetry

/// `{active, entitlements:[…], guid}`: `active` when any entitlement is active. Written by hand, keys sorted as
/// `JSONResponse.encode` sorts them (`JSONEncoder` was 7 % of a lookup's CPU; docs/performance.md).
struct EntitlementsAnswer {
    var guid: String
    var entitlements: [BuyerLookup.Entitlement]

    var active: Bool { entitlements.contains { $0.status == "active" } }

    /// The answer as JSON text, optionally wrapped as the public route wraps it: `{"success":true,"data":…}`.
    func json(wrapped: Bool = false) -> [UInt8] {
        var out = JSONBytes(capacity: 64 + 160 * entitlements.count)
        if wrapped { out.append(raw: #"{"success":true,"data":"#) }
        out.append(raw: active ? #"{"active":true,"entitlements":["# : #"{"active":false,"entitlements":["#)
        for (index, entitlement) in entitlements.enumerated() {
            if index > 0 { out.append(byte: UInt8(ascii: ",")) }
            out.append(raw: #"{"entitlement":"#)
            out.append(string: entitlement.entitlement)
            out.append(raw: #","expiresAt":"#)
            if let expiresAt = entitlement.expiresAt { out.append(string: expiresAt) } else { out.append(raw: "null") }
            out.append(raw: #","paymentId":"#)
            out.append(string: entitlement.paymentId)
            out.append(raw: #","productId":"#)
            out.append(string: entitlement.productId)
            out.append(raw: #","status":"#)
            out.append(string: entitlement.status)
            out.append(byte: UInt8(ascii: "}"))
        }
        out.append(raw: #"],"guid":"#)
        out.append(string: guid)
        out.append(raw: wrapped ? "}}" : "}")
        return out.bytes
    }
}
