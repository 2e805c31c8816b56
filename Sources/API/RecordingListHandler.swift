import Commands
import Domain
import Foundation
import HTTPServer
import Telemetry

/// `GET /s2s/v1/apps/{appId}/recordings?sessionId=&limit=&after=`: the recording packets of one session of an app of
/// the key's project, by `seq`: `{"sessionId","packets":[{"seq","screen"?,"startedAt","endedAt","eventCount",
/// "receivedAt","events":[rrweb events]}],"nextAfter":N|null}` (docs/recordings.md). `limit` 1–200 (default 20);
/// `after` is a page's `nextAfter`. An unknown session is an empty list; another project's or org's app is 404.
enum RecordingListHandler {
    static let defaultLimit = 20
    static let maxLimit = 200

    /// Whether `text` can be an SDK's session id: 1 to 64 characters, no control character.
    static func isSessionId(_ text: String) -> Bool {
        (1...64).contains(text.unicodeScalars.count)
            && !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
    }

    static func list(_ request: Request, _ context: RequestContext, _ environment: Environment, appId text: String)
        throws -> Response
    {
        let scope = try AppHandler.scope(text, context)
        let tenant = try context.tenant()
        guard let session = request.query["sessionId"], isSessionId(session) else {
            throw APIError.validation("query parameter 'sessionId' is required: 1 to 64 characters of text")
        }
        let limit = try EventsHandler.integer(request.query["limit"], name: "limit", default: defaultLimit,
                                              range: 1...maxLimit)
        let after = try EventsHandler.integer(request.query["after"], name: "after", default: -1,
                                              range: 0...Int(Int32.max))
        guard try environment.apps().lookup.app(scope.app, org: tenant.orgId, project: scope.project) != nil else {
            throw AppHandler.notFound
        }
        let packets = try environment.model.ingest.recordings.packets(org: tenant.orgId, appId: scope.app,
                                                                      sessionId: session, after: after,
                                                                      limit: limit + 1)
        var body = JSONBytes(capacity: 4096)
        body.append(raw: "{\"nextAfter\":")
        if packets.count > limit, let last = packets.prefix(limit).last {
            body.append(integer: last.seq)
        } else {
            body.append(raw: "null")
        }
        body.append(raw: ",\"packets\":[")
        for (index, packet) in packets.prefix(limit).enumerated() {
            if index > 0 { body.append(byte: UInt8(ascii: ",")) }
            body.append(raw: "{\"endedAt\":")
            body.append(string: RFC3339.format(packet.endedAt))
            body.append(raw: ",\"eventCount\":")
            body.append(integer: packet.eventCount)
            // Each stored line is one JSON object (checked on the way in): the lines joined by commas are an array.
            body.append(raw: ",\"events\":[")
            let lines = packet.events.split(separator: UInt8(ascii: "\n"))
            for (position, line) in lines.enumerated() {
                if position > 0 { body.append(byte: UInt8(ascii: ",")) }
                body.append(raw: String(decoding: line, as: UTF8.self))
            }
            body.append(raw: "],\"receivedAt\":")
            body.append(string: RFC3339.format(packet.receivedAt))
            if let screen = packet.screen {
                body.append(raw: ",\"screen\":")
                body.append(string: screen)
            }
            body.append(raw: ",\"seq\":")
            body.append(integer: packet.seq)
            body.append(raw: ",\"startedAt\":")
            body.append(string: RFC3339.format(packet.startedAt))
            body.append(byte: UInt8(ascii: "}"))
        }
        body.append(raw: "],\"sessionId\":")
        body.append(string: session)
        body.append(byte: UInt8(ascii: "}"))
        return JSONResponse.raw(body.bytes)
    }
}
