import Crypto
import Domain
import Foundation
import HTTPServer

/// The HTML of the post-payment page (`GET /done/<token>`): self-contained (inline style and script only, allowed by
/// hash in a strict Content-Security-Policy), works without JavaScript, English or Russian.
///
/// Every value put into the HTML goes through `escape`. The script reads its inputs from `data-` attributes of
/// `<html>` (so its text, and therefore its hash, never changes), sends the fingerprint once, and marks
/// `data-fingerprint="sent"` when the server accepted it (the browser test waits for that).
public enum PostPaymentPageHTML {
    /// What one page shows.
    public struct Content: Sendable, Equatable {
        public var language: PageLanguage
        /// The code to show; nil when it was redeemed or expired.
        public var code: String?
        /// `scheme://handoff?code=…` when the project has a return scheme and the code still works.
        public var returnLink: String?
        /// The store button: the Play install link on Android, the tracker link elsewhere (when given).
        public var storeLink: StoreLink?
        /// Where the script sends the fingerprint; nil leaves the script out.
        public var fingerprint: FingerprintScript?

        public init(language: PageLanguage, code: String?, returnLink: String?, storeLink: StoreLink?,
                    fingerprint: FingerprintScript?) {
            self.language = language
            self.code = code
            self.returnLink = returnLink
            self.storeLink = storeLink
            self.fingerprint = fingerprint
        }
    }

    /// The inputs of the fingerprint script: the page token and the capture endpoint's absolute URL.
    public struct FingerprintScript: Sendable, Equatable {
        public var token: String
        public var endpoint: String

        public init(token: String, endpoint: String) {
            self.token = token
            self.endpoint = endpoint
        }
    }

    /// Where the store button leads.
    public enum StoreLink: Sendable, Equatable {
        case googlePlay(String)
        case tracker(String)
    }

    /// The page's texts in one language.
    struct Texts {
        var title, heading, openApp, caption, googlePlay, download, spent: String

        static func of(_ language: PageLanguage) -> Texts {
            switch language {
            case .en:
                return Texts(title: "Payment complete", heading: "Thank you! Your purchase is ready.",
                             openApp: "Open the app", caption: "Or enter the code manually",
                             googlePlay: "Get it on Google Play", download: "Download the app",
                             spent: "This code is no longer valid. Open the app and restore your purchase with your "
                                 + "e-mail.")
            case .ru:
                return Texts(title: "Оплата прошла", heading: "Спасибо! Покупка готова.",
                             openApp: "Открыть приложение", caption: "Или введите код вручную",
                             googlePlay: "Скачать в Google Play", download: "Скачать приложение",
                             spent: "Этот код больше не действует. Откройте приложение и восстановите покупку по "
                                 + "e-mail.")
            }
        }
    }

    static let style = """
        body{margin:0;font:16px/1.5 -apple-system,system-ui,sans-serif;background:#f6f7f9;color:#111}\
        main{max-width:420px;margin:0 auto;padding:32px 20px;text-align:center}\
        h1{font-size:22px;margin:0 0 24px}\
        .button{display:block;margin:12px 0;padding:14px;border-radius:12px;background:#111;color:#fff;\
        text-decoration:none;font-weight:600}\
        .store{background:#fff;color:#111;border:1px solid #ccc}\
        .code{font:700 32px/1.2 ui-monospace,monospace;letter-spacing:4px;margin:8px 0;user-select:all}\
        .caption{color:#555;margin-top:24px}
        """

    static let script = """
        (function(){var d=document.documentElement,t=d.getAttribute('data-token'),\
        u=d.getAttribute('data-endpoint');if(!t||!u||!window.fetch||!window.JSON)return;\
        var b={token:t,screen:screen.width+'x'+screen.height};\
        try{var z=Intl.DateTimeFormat().resolvedOptions().timeZone;if(z)b.timezone=z}catch(e){}\
        if(navigator.language)b.language=navigator.language;\
        fetch(u,{method:'POST',headers:{'Content-Type':'application/json'},body:JSON.stringify(b),\
        credentials:'omit',cache:'no-store',referrerPolicy:'no-referrer'}).then(function(r){\
        d.setAttribute('data-fingerprint',r.ok?'sent':'refused')},function(){\
        d.setAttribute('data-fingerprint','failed')})})();
        """

    /// The Content-Security-Policy: nothing but this page's own style and script (by SHA-256) and `fetch` to the
    /// same origin.
    static let contentSecurityPolicy = "default-src 'none'; style-src '\(hashSource(style))'; "
        + "script-src '\(hashSource(script))'; connect-src 'self'; img-src 'none'; base-uri 'none'; "
        + "form-action 'none'; frame-ancestors 'none'"

    /// The page as a 200 response.
    public static func render(_ content: Content) -> Response {
        let texts = Texts.of(content.language)
        var html = "<!doctype html><html lang=\"\(content.language.rawValue)\""
        if let fingerprint = content.fingerprint {
            html += " data-token=\"\(escape(fingerprint.token))\" data-endpoint=\"\(escape(fingerprint.endpoint))\""
        }
        html += "><head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
            + "<meta name=\"referrer\" content=\"no-referrer\">"
            + "<title>\(escape(texts.title))</title><style>\(style)</style></head><body><main>"
            + "<h1>\(escape(texts.heading))</h1>"
        if let returnLink = content.returnLink {
            html += "<a class=\"button\" id=\"open-app\" href=\"\(escape(returnLink))\">\(escape(texts.openApp))</a>"
        }
        switch content.storeLink {
        case .googlePlay(let url):
            html += "<a class=\"button store\" id=\"store\" href=\"\(escape(url))\">\(escape(texts.googlePlay))</a>"
        case .tracker(let url):
            html += "<a class=\"button store\" id=\"store\" href=\"\(escape(url))\">\(escape(texts.download))</a>"
        case nil:
            break
        }
        if let code = content.code {
            html += "<p class=\"caption\">\(escape(texts.caption))</p>"
                + "<p class=\"code\" id=\"code\">\(escape(code))</p>"
        } else {
            html += "<p class=\"caption\" id=\"spent\">\(escape(texts.spent))</p>"
        }
        html += "</main>"
        if content.fingerprint != nil { html += "<script>\(script)</script>" }
        html += "</body></html>"
        var response = Response(status: 200, headers: headers, body: Array(html.utf8))
        response.headers.add("Vary", "Accept-Language, User-Agent")
        return response
    }

    /// The one 404 page for every failure (bad, tampered or unknown token): fixed bytes, both languages.
    public static let notFound: Response = {
        let html = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
            + "<title>Not found</title><style>\(style)</style></head><body><main><h1>Page not found</h1>"
            + "<p lang=\"ru\">Страница не найдена</p></main></body></html>"
        return Response(status: 404, headers: headers, body: Array(html.utf8))
    }()

    static var headers: Headers {
        Headers([
            ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
            ("Referrer-Policy", "no-referrer"), ("Content-Security-Policy", contentSecurityPolicy),
            ("X-Content-Type-Options", "nosniff"),
        ])
    }

    /// HTML-escapes `text` (`HTMLText.escape`).
    public static func escape(_ text: String) -> String { HTMLText.escape(text) }

    /// `sha256-<base64>` of `source` as CSP wants it.
    static func hashSource(_ source: String) -> String {
        "sha256-" + Data(SHA256.hash(Array(source.utf8))).base64EncodedString()
    }
}
