import Domain

/// The typed payload an event's `data` was encoded from, kept beside the data while the appending process still
/// holds the event, so its projections read it without decoding JSON again (`RecordedEvent.decode`).
///
/// Not part of an event's identity: two events are equal or not by their other fields (the data among them), so
/// this compares equal always. It never reaches the log; an event read back has none.
struct TypedPayload: Sendable, Equatable {
    let value: any EventPayload

    static func == (lhs: TypedPayload, rhs: TypedPayload) -> Bool { true }
}
