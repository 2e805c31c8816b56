/// A function of the schema that answers which organization a value belongs to (`uuid`, NULL for none): a
/// `SECURITY DEFINER` function owned by the owner role, so it reads past row-level security, exactly one row's
/// `org_id`, and nothing else (migration 0015 lists them).
public struct OrgLookup: Sendable, Equatable {
    /// The function's name; a literal in code, never input.
    public let function: String

    /// The lookup function named `function` (one argument, returns the org id or NULL).
    public init(function: StaticString) {
        self.function = function.description
    }
}
