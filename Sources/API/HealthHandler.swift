import Commands
import HTTPServer
import Redis

/// `/healthz` (the process answers) and `/readyz` (its dependencies answer too).
enum HealthHandler {
    /// 200 while the process serves requests; touches no dependency.
    static func healthz(_ request: Request, _ environment: Environment) -> Response {
        JSONResponse.raw("{\"status\":\"ok\"}")
    }

    /// 200 when Postgres and Redis both answer; 503 naming the one(s) that do not.
    static func readyz(_ request: Request, _ environment: Environment) throws -> Response {
        var down: [String] = []
        do {
            try environment.model.checkDatabase(timeout: environment.readinessTimeout)
        } catch {
            environment.logger.warning("readiness check failed", [
                "dependency": "postgres", "error": .string("\(error)"),
            ])
            down.append("postgres")
        }
        do {
            let reply = try environment.redis.command(["PING"])
            if reply != .status("PONG") { down.append("redis") }
        } catch {
            environment.logger.warning("readiness check failed", [
                "dependency": "redis", "error": .string("\(error)"),
            ])
            down.append("redis")
        }
        guard down.isEmpty else {
            let names = down.joined(separator: " and ")
            throw APIError.unavailable("not ready: \(names) not answering", retryAfterSeconds: 5)
        }
        return JSONResponse.raw("{\"status\":\"ready\",\"postgres\":\"up\",\"redis\":\"up\"}")
    }
}
