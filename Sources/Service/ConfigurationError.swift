/// A configuration variable with a value the service cannot use; the process stops with this message.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The environment variable at fault.
    public let variable: String
    /// What is wrong and what is accepted (never the value itself when it may hold a secret).
    public let problem: String

    public init(variable: String, problem: String) {
        self.variable = variable
        self.problem = problem
    }

    public var description: String { "\(variable): \(problem)" }
}
