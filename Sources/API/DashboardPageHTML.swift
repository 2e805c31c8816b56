import Commands
import Crypto
import Domain
import Foundation
import HTTPServer

/// The read-only handoff dashboard (`GET /dashboard/{token}`, docs/diagnostics.md "Dashboard"): the handoff report's
/// funnel, paths, time to identification and refusals as inline SVG bar charts, English or Russian. No script, no
/// outside asset; one constant style allowed by its hash in a strict Content-Security-Policy.
enum DashboardPageHTML {
    static let style = """
        body{font:15px/1.45 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1d232b}\
        main{max-width:860px;margin:0 auto;padding:24px}h1{font-size:22px;margin:0 0 4px}\
        h2{font-size:17px;margin:28px 0 8px}section{background:#fff;border-radius:10px;padding:16px;\
        box-shadow:0 1px 3px #0001;margin-bottom:16px}.muted{color:#5b6672}table{border-collapse:collapse;width:100%}\
        td,th{text-align:left;padding:4px 8px;border-bottom:1px solid #e6e9ee}svg text{font:13px system-ui,sans-serif}
        """

    static let contentSecurityPolicy = "default-src 'none'; style-src '\(PostPaymentPageHTML.hashSource(style))'; "
        + "img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The words of one language.
    struct Texts {
        var title, range, payments, funnel, within1h, within24h, within7d, byPath, timeTo, median, none: String
        var refusals, unidentified, paidAt, reason, later: String
        var paths: [IdentificationPath: String]
        var reasons: [String: String]
        var upTo: (Int) -> String

        static func of(_ language: PageLanguage) -> Texts {
            switch language {
            case .en:
                Texts(title: "Handoff dashboard", range: "Payments of the last 30 days, as of", payments: "Payments",
                      funnel: "Identified in the app", within1h: "within 1 h", within24h: "within 24 h",
                      within7d: "within 7 days", byPath: "By path (within 7 days)",
                      timeTo: "Time to identification", median: "Median", none: "none yet",
                      refusals: "Fingerprint refusals", unidentified: "Not identified yet", paidAt: "Paid",
                      reason: "Likeliest reason", later: "later",
                      paths: [.externalId: "externalId", .handoffCode: "handoff code", .installToken: "install token",
                              .fingerprintExact: "fingerprint (exact)", .fingerprintIp: "fingerprint (IP)",
                              .recoveryMail: "recovery mail", .storeNotification: "store notification"],
                      reasons: ["ambiguous": "ambiguous", "contradicting": "contradicting attribute",
                                "windowPassed": "window passed", "disabled": "fingerprinting off"],
                      upTo: { "≤ \(duration($0, en: true))" })
            case .ru:
                Texts(title: "Панель передачи", range: "Платежи за последние 30 дней, на", payments: "Платежи",
                      funnel: "Опознаны в приложении", within1h: "за 1 ч", within24h: "за 24 ч",
                      within7d: "за 7 дней", byPath: "По способу (за 7 дней)",
                      timeTo: "Время до опознания", median: "Медиана", none: "пока нет",
                      refusals: "Отказы по отпечатку", unidentified: "Ещё не опознаны", paidAt: "Оплачен",
                      reason: "Вероятная причина", later: "позже",
                      paths: [.externalId: "externalId", .handoffCode: "код передачи",
                              .installToken: "токен установки",
                              .fingerprintExact: "отпечаток (точно)", .fingerprintIp: "отпечаток (IP)",
                              .recoveryMail: "письмо восстановления", .storeNotification: "уведомление магазина"],
                      reasons: ["ambiguous": "неоднозначно", "contradicting": "противоречащий признак",
                                "windowPassed": "окно истекло", "disabled": "отпечатки выключены"],
                      upTo: { "≤ \(duration($0, en: false))" })
            }
        }

        static func duration(_ seconds: Int, en: Bool) -> String {
            switch seconds {
            case ..<3600: "\(seconds / 60) \(en ? "min" : "мин")"
            case ..<86400: "\(seconds / 3600) \(en ? "h" : "ч")"
            default: "\(seconds / 86400) \(en ? "d" : "дн")"
            }
        }
    }

    /// The page for `report` in `language`, made at `now`.
    static func render(_ report: HandoffReport, language: PageLanguage, now: Date) -> Response {
        let texts = Texts.of(language)
        let funnel = report.funnel
        var html = "<!doctype html><html lang=\"\(language.rawValue)\"><head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
            + "<meta name=\"referrer\" content=\"no-referrer\"><title>\(escape(texts.title))</title>"
            + "<style>\(style)</style></head><body><main>"
            + "<h1>\(escape(texts.title))</h1><p class=\"muted\">\(escape(texts.range)) "
            + "\(escape(PaymentFields.text(now))) · \(escape(report.project.description))</p>"
        let identified = { (name: String) in funnel.identified[name] ?? 0 }
        html += "<section id=\"funnel\"><h2>\(escape(texts.funnel))</h2>" + bars([
            (texts.payments, funnel.payments), (texts.within1h, identified("within1h")),
            (texts.within24h, identified("within24h")), (texts.within7d, identified("within7d")),
        ], total: funnel.payments, color: "#2f6fde") + "</section>"
        html += "<section id=\"paths\"><h2>\(escape(texts.byPath))</h2>" + bars(
            IdentificationPath.allCases.map {
                (texts.paths[$0] ?? $0.rawValue, funnel.byPath[$0]?["within7d"] ?? 0)
            },
            total: funnel.payments, color: "#1f9d74") + "</section>"
        let median = funnel.medianSecondsToIdentification.map { Texts.duration($0, en: language == .en) }
            ?? texts.none
        html += "<section id=\"time\"><h2>\(escape(texts.timeTo))</h2>"
            + "<p>\(escape(texts.median)): <strong id=\"median\">\(escape(median))</strong></p>"
            + bars(funnel.distribution.map { ($0.upTo.map(texts.upTo) ?? texts.later, $0.count) },
                   total: funnel.secondsToIdentification.count, color: "#8a5cd6") + "</section>"
        html += "<section id=\"refusals\"><h2>\(escape(texts.refusals))</h2>" + bars(
            ["ambiguous", "contradicting", "windowPassed", "disabled"].map {
                (texts.reasons[$0] ?? $0, funnel.fingerprintRefusals[$0] ?? 0)
            }, total: funnel.fingerprintRefusals.values.reduce(0, +), color: "#d9822b") + "</section>"
        html += "<section id=\"unidentified\"><h2>\(escape(texts.unidentified)) (\(funnel.unidentified.count))</h2>"
        if funnel.unidentified.isEmpty {
            html += "<p class=\"muted\">—</p>"
        } else {
            html += "<table><tr><th>paymentId</th><th>\(escape(texts.paidAt))</th>"
                + "<th>\(escape(texts.reason))</th></tr>"
            for payment in funnel.unidentified.prefix(50) {
                html += "<tr><td>\(escape(payment.paymentId))</td><td>\(escape(PaymentFields.text(payment.paidAt)))"
                    + "</td><td>\(escape(payment.verdict.words))</td></tr>"
            }
            html += "</table>"
        }
        html += "</section></main></body></html>"
        var response = Response(status: 200, headers: headers, body: Array(html.utf8))
        response.headers.add("Vary", "Accept-Language")
        return response
    }

    /// A horizontal bar chart in inline SVG: one row per `(label, value)`, bars scaled to `total` (at least 1).
    static func bars(_ rows: [(String, Int)], total: Int, color: String) -> String {
        let width = 560, labelWidth = 190, rowHeight = 30
        let scale = Double(width - labelWidth - 60) / Double(max(total, rows.map { $0.1 }.max() ?? 0, 1))
        var svg = "<svg viewBox=\"0 0 \(width) \(rows.count * rowHeight)\" "
            + "width=\"100%\" role=\"img\">"
        for (index, row) in rows.enumerated() {
            let y = index * rowHeight
            let bar = Int((Double(row.1) * scale).rounded())
            svg += "<text x=\"0\" y=\"\(y + 19)\">\(escape(row.0))</text>"
                + "<rect x=\"\(labelWidth)\" y=\"\(y + 6)\" width=\"\(bar)\" height=\"18\" rx=\"3\" "
                + "fill=\"\(color)\"/>"
                + "<text x=\"\(labelWidth + bar + 6)\" y=\"\(y + 19)\">\(row.1)</text>"
        }
        return svg + "</svg>"
    }

    /// The one 404 page for a bad, tampered, foreign or expired link: fixed bytes, both languages.
    static let notFound: Response = {
        let html = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not found</title>"
            + "<style>\(style)</style></head><body><main><h1>This dashboard link is invalid or has expired</h1>"
            + "<p lang=\"ru\">Ссылка на панель недействительна или истекла</p></main></body></html>"
        return Response(status: 404, headers: headers, body: Array(html.utf8))
    }()

    static var headers: Headers {
        Headers([
            ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
            ("Referrer-Policy", "no-referrer"), ("Content-Security-Policy", contentSecurityPolicy),
            ("X-Content-Type-Options", "nosniff"),
        ])
    }

    static func escape(_ text: String) -> String { HTMLText.escape(text) }
}
