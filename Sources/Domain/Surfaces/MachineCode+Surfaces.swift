/// The machine codes of surfaces (issue 15, forwarded App Store notifications).
extension MachineCode {
    /// A surface id that is not a UUID in canonical text form.
    public static let surfaceIDFormat = MachineCode(rawValue: "VALIDATION_SURFACE_ID_FORMAT")
    /// A grace period that is not a whole number of hours in 0…720.
    public static let graceHoursFormat = MachineCode(rawValue: "VALIDATION_GRACE_HOURS_FORMAT")
}
