import Commands
import Domain
import Foundation
import HTTPServer

/// `/s2s/v1/apps/{appId}/destinations…`: an app's forward destinations besides (or including) its forward URL.
enum AppDestinationHandler {
    /// `POST /s2s/v1/apps/{appId}/destinations` → 201 `{"destinationId","scheme","url","isDefault","secret"}`.
    static func add(_ request: Request, _ context: RequestContext, _ environment: Environment, appId text: String)
        throws -> Response
    {
        let scope = try AppHandler.scope(text, context)
        let body = try JSONBody.decode(DestinationBody.self, from: request)
        let id = try environment.apps().addDestination.run(
            scope, scheme: body.scheme, url: body.url, secret: body.secret, fields: .json,
            metadata: AppHandler.metadata(try context.tenant(), context))
        return try JSONResponse.encode(Answer(destinationId: id.description, isDefault: false,
                                              scheme: body.scheme.rawValue,
                                              secret: body.secret == nil ? nil : ["set": true], url: body.url.text),
                                       status: 201)
    }

    /// A destination as answered, every key written.
    struct Answer: Encodable {
        var destinationId: String
        var isDefault: Bool
        var scheme: String
        var secret: [String: Bool]?
        var url: String

        private enum CodingKeys: String, CodingKey { case destinationId, isDefault, scheme, secret, url }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(destinationId, forKey: .destinationId)
            try container.encode(isDefault, forKey: .isDefault)
            try container.encode(scheme, forKey: .scheme)
            try container.encode(secret, forKey: .secret)
            try container.encode(url, forKey: .url)
        }
    }

    /// `DELETE /s2s/v1/apps/{appId}/destinations/{destinationId}` → 204; a destination the app does not have live
    /// (never had, or removed before) → 404.
    static func remove(_ request: Request, _ context: RequestContext, _ environment: Environment, appId text: String,
                       destinationId: String) throws -> Response {
        let scope = try AppHandler.scope(text, context)
        let destination: DestinationID
        switch DestinationID.parse(destinationId) {
        case .success(let id): destination = id
        case .failure(let refusal): throw APIError(refusal)
        }
        try environment.apps().removeDestination.run(scope, destination: destination,
                                                     metadata: AppHandler.metadata(try context.tenant(), context))
        return Response(status: 204)
    }
}
