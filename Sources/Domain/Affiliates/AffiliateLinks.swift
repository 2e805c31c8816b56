/// The links of an affiliate program: the link an affiliate shares, and where following it leads.
public enum AffiliateLinks {
    /// `<base>/a/<REFCODE>?p=<projectId>`: the affiliate's link (`link` in its JSON). Naming the project keeps it
    /// unambiguous when another project of the deployment gives out the same code. `base` is `PUBLIC_BASE_URL`
    /// without a trailing `/`.
    public static func link(base: String, refCode: RefCode, project: ProjectID) -> String {
        "\(base)/a/\(refCode.text)?p=\(project)"
    }

    /// `landing` with `click=<signedClickId>` added to its query (before a fragment, if any): where `GET /a/{refCode}`
    /// redirects. The click id is URL-safe as it is.
    public static func landing(_ landing: String, signedClickID: String) -> String {
        let fragmentStart = landing.firstIndex(of: "#") ?? landing.endIndex
        let beforeFragment = landing[..<fragmentStart]
        let separator: String
        if let question = beforeFragment.firstIndex(of: "?") {
            let query = beforeFragment[beforeFragment.index(after: question)...]
            separator = query.isEmpty || query.hasSuffix("&") ? "" : "&"
        } else {
            separator = "?"
        }
        return beforeFragment + separator + "click=" + signedClickID + landing[fragmentStart...]
    }
}
