import CLibPQ

extension Connection {
    /// Sends `statements` together and reads their answers in order: one round trip for all of them (libpq's
    /// pipeline mode) instead of one each.
    ///
    /// Outside a transaction block the statements run as one implicit transaction, committed after the last one, so
    /// a `set_config(…, true)` in the first holds for the others and ends with them; a `BEGIN` among them opens a
    /// block that stays open afterwards. When a statement fails, the ones after it do not run and its error is
    /// thrown; outside a block nothing of the pipeline is kept. Prepared statements this connection has not prepared
    /// yet are prepared first (one round trip each, once per connection). Returns one result per statement.
    ///
    /// Statements queued by `sendWithNext` go first, in the same round trip; their results are not returned.
    @discardableResult
    public func pipeline(_ given: [Statement]) throws -> [QueryResult] {
        // Refuse what cannot be sent before anything is: a pipeline runs whole or not at all on the client's side,
        // and the queued statements stay queued.
        for (index, statement) in given.enumerated() {
            for case .text(let text) in statement.parameters where text.utf8.contains(0) {
                throw PostgresError(kind: .other, message: "statement \(index + 1) of the pipeline has a text "
                                    + "parameter with a NUL character")
            }
        }
        let queued = unsent.count
        let statements = unsent + given
        unsent = []
        do {
            return Array(try runPipeline(statements).dropFirst(queued))
        } catch let error as PostgresError where error.sqlState == "26000" && transactionStatus == PQTRANS_IDLE {
            // Someone ran DEALLOCATE or DISCARD on this connection and nothing of the pipeline was kept: prepare the
            // statements again and run it once more (as `queryPrepared` does).
            for statement in statements where statement.prepared { preparedStatements[statement.sql] = nil }
            return Array(try runPipeline(statements).dropFirst(queued))
        }
    }

    private func runPipeline(_ statements: [Statement]) throws -> [QueryResult] {
        guard !statements.isEmpty else { return [] }
        let connection = try liveHandle()
        var names: [String?] = []
        for statement in statements {
            if statement.prepared, usesPreparedStatements, let name = try preparedStatements[statement.sql]
                ?? prepare(statement.sql, statement.parameters) {
                names.append(name)
            } else {
                names.append(nil)
            }
        }
        guard PQenterPipelineMode(connection) == 1 else { throw failureWithoutResult() }
        var sent = 0
        var parameterError: (any Error)?
        for (statement, name) in zip(statements, names) {
            do {
                let accepted = try Self.withParameters(statement.parameters) { types, values, lengths, formats in
                    let count = Int32(statement.parameters.count)
                    if let name { return PQsendQueryPrepared(connection, name, count, values, lengths, formats, 0) }
                    return PQsendQueryParams(connection, statement.sql, count, types, values, lengths, formats, 0)
                }
                guard accepted == 1 else { try abandonPipeline() }
                sent += 1
            } catch let error as PostgresError where error.kind != .connectionLost {
                // A parameter libpq cannot take (checked above, so not expected): send no more, end the pipeline
                // cleanly (the statements already sent run), then throw.
                parameterError = error
                break
            }
        }
        guard PQpipelineSync(connection) == 1 else { try abandonPipeline() }
        var results: [QueryResult] = []
        var firstError: (any Error)?
        for _ in 0..<sent {
            guard let result = PQgetResult(connection) else { try abandonPipeline() }
            if PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
                PQclear(result)
            } else {
                do {
                    results.append(try consume(result))
                } catch {
                    if firstError == nil { firstError = error }
                }
            }
            // Each statement's answer ends with a NULL result.
            while let extra = PQgetResult(connection) { PQclear(extra) }
        }
        guard let sync = PQgetResult(connection) else { try abandonPipeline() }
        let synced = PQresultStatus(sync) == PGRES_PIPELINE_SYNC
        PQclear(sync)
        guard synced, PQexitPipelineMode(connection) == 1 else { try abandonPipeline() }
        if let parameterError { throw parameterError }
        if let firstError { throw firstError }
        return results
    }

    /// The connection can no longer be brought back out of pipeline mode: it is broken for good.
    private func abandonPipeline() throws -> Never {
        let error = failureWithoutResult()
        broken = true
        throw PostgresError(kind: .connectionLost, sqlState: error.sqlState,
                            message: error.message.isEmpty ? "the pipeline was interrupted" : error.message)
    }
}
