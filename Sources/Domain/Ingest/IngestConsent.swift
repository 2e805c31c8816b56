/// The consent a batch, install or lead carries: `cm` (the app's consent mode) and `cs` (one character per purpose).
///
/// `cs` is exactly four characters, in this order: analytics, attribution, recordings, ad measurement; each `g`
/// granted, `d` denied, `p` pending, `x` not used. Both are required: there is no default.
public struct IngestConsent: Sendable, Equatable {
    /// How the app asks for consent.
    public enum Mode: String, Sendable, Equatable {
        case always
        case optIn = "opt_in"
        case optOut = "opt_out"
    }

    /// One purpose's state.
    public enum State: Character, Sendable, Equatable {
        case granted = "g"
        case denied = "d"
        case pending = "p"
        case notUsed = "x"
    }

    public var mode: Mode
    public var analytics: State
    public var attribution: State
    public var recordings: State
    public var adMeasurement: State

    public init(mode: Mode, analytics: State, attribution: State, recordings: State, adMeasurement: State) {
        self.mode = mode
        self.analytics = analytics
        self.attribution = attribution
        self.recordings = recordings
        self.adMeasurement = adMeasurement
    }

    /// Whether a batch may be stored: analytics granted.
    public var storesBatches: Bool { analytics == .granted }
    /// Whether install sources may be used: attribution granted.
    public var usesInstallSources: Bool { attribution == .granted }

    /// The `cs` text as sent.
    public var text: String { String([analytics, attribution, recordings, adMeasurement].map(\.rawValue)) }

    /// Parses `cm` and `cs`; refuses 400 `invalid` naming `cm` or `cs`.
    public static func parse(mode: String?, states: String?) -> Result<IngestConsent, IngestRefusal> {
        guard let mode else { return .failure(.invalid("cm is required")) }
        guard let parsedMode = Mode(rawValue: mode) else {
            return .failure(.invalid("cm must be always, opt_in or opt_out"))
        }
        guard let states else { return .failure(.invalid("cs is required")) }
        let parsed = states.map(State.init(rawValue:))
        guard parsed.count == 4, parsed.allSatisfy({ $0 != nil }) else {
            return .failure(.invalid("cs must be 4 characters of g, d, p, x"))
        }
        return .success(IngestConsent(mode: parsedMode, analytics: parsed[0]!, attribution: parsed[1]!,
                                      recordings: parsed[2]!, adMeasurement: parsed[3]!))
    }
}
