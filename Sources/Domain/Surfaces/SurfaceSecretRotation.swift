import Foundation

/// The decider of `handoff admin surface rotate-secret`: a surface gets a new forwarding secret, and the one it
/// replaces keeps verifying for a grace period (default 24 hours, 0 ends it at once), so the forwarding server can
/// switch without losing a notification. A secret still in an earlier rotation's grace stops at once.
public enum SurfaceSecretRotation {
    /// The hours a grace period may last.
    public static let graceHours = 0...720
    /// The grace period when none is given.
    public static let defaultGraceHours = 24

    /// Decides rotating the secret of a surface that exists or not (404 `NOT_FOUND` about `field`); answers the
    /// instant the replaced secret stops verifying: `now` plus `graceHours`.
    public static func decide(surfaceExists: Bool, graceHours: Int, now: Date, field: String = "surfaceId")
        -> Result<Date, Refusal>
    {
        guard surfaceExists else { return .failure(.notFound("no surface has this id", field: field)) }
        return .success(now.addingTimeInterval(TimeInterval(graceHours) * 3600))
    }

    /// The grace period's hours from text: an integer in `graceHours`, refused with `VALIDATION_GRACE_HOURS_FORMAT`.
    public static func parseGraceHours(_ text: String, field: String = "graceHours") -> Result<Int, FieldRefusal> {
        guard text.utf8.count <= 4, text.utf8.allSatisfy(ASCII.isDigit), let hours = Int(text),
              graceHours.contains(hours) else {
            return .failure(FieldRefusal(field: field, code: .graceHoursFormat,
                                         rule: "be a whole number of hours from 0 to \(graceHours.upperBound)"))
        }
        return .success(hours)
    }
}
