/// An install's identity (docs/app-ingest.md "Identity"): the account tokens a batch's `id{s,xid,em,emg,lid}`
/// carries, the `identity` tier they lead to, and how the server side spells a user's tokens the way the SDK does.
/// Pure: the caller hashes (SHA-256) and reads the stored state.
public enum InstallIdentity {
    /// The token kinds of a batch's `id`, each a SHA-256 in lowercase hex: `xid` the app's own user id, `em` the
    /// e-mail address, `emg` the e-mail address as Google normalizes it, `lid` a lead id.
    public static let tokenKinds = ["xid", "em", "emg", "lid"]

    /// The tier an identified install moves to, or nil when it stays: only with attribution granted in the batch
    /// that identified it (the install's latest), and only from a tier the precedence puts below `identity`
    /// (`organic`, or `unknown` when the install was recorded without attribution consent, which this batch now
    /// grants). `referrer`, `apple_ads`, `pending` and `link` outrank it; `identity` is already there.
    public static func identifiedTier(current: InstallTier, attributionGranted: Bool) -> InstallTier? {
        guard attributionGranted else { return nil }
        switch current {
        case .organic, .unknown: return .identity
        case .referrer, .appleAds, .pending, .link, .identity: return nil
        }
    }

    /// The texts whose SHA-256 the SDK sends for a user (kind → text), so the server-side erase finds the same
    /// tokens: `xid` the user id exactly as given; `em` the address trimmed of white space and lowercased; `emg` that
    /// address with, for `gmail.com`/`googlemail.com`, the dots and any `+tag` of the local part removed.
    public static func tokenTexts(userId: String?, email: String?) -> [(kind: String, text: String)] {
        var texts: [(kind: String, text: String)] = []
        if let userId { texts.append(("xid", userId)) }
        if let email {
            let normalized = email.trimmingWhitespace().lowercased()
            texts.append(("em", normalized))
            texts.append(("emg", googleNormalized(normalized)))
        }
        return texts
    }

    /// `address` (already trimmed and lowercased) as Google normalizes a Gmail address; any other address as is.
    static func googleNormalized(_ address: String) -> String {
        guard let at = address.lastIndex(of: "@") else { return address }
        let domain = address[address.index(after: at)...]
        guard domain == "gmail.com" || domain == "googlemail.com" else { return address }
        var local = address[..<at]
        if let plus = local.firstIndex(of: "+") { local = local[..<plus] }
        return local.filter { $0 != "." } + "@" + domain
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and line breaks.
    fileprivate func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
