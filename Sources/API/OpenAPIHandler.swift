import HTTPServer

/// `/openapi.json`: the OpenAPI 3.1 description of the endpoints this build serves.
enum OpenAPIHandler {
    static func document(_ request: Request, _ environment: Environment) -> Response {
        JSONResponse.raw(OpenAPIDocument.json)
    }
}

/// The OpenAPI document, kept beside the routes it describes; a test checks every route is in it.
enum OpenAPIDocument {
    static let json = """
    {"openapi":"3.1.0",\
    "info":{"title":"Handoff","version":"0.1.0","description":"Carries a web purchase into a mobile app."},\
    "components":{"schemas":{"Error":{"type":"object","required":["statusCode","message"],\
    "properties":{"statusCode":{"type":"integer"},"code":{"type":"string"},"message":{"type":"string"}}}}},\
    "paths":{\
    "/healthz":{"get":{"summary":"The process answers","responses":{"200":{"description":"alive"}}}},\
    "/readyz":{"get":{"summary":"Postgres and Redis answer","responses":{"200":{"description":"ready"},\
    "503":{"description":"a dependency is down; the message names it",\
    "content":{"application/json":{"schema":{"$ref":"#/components/schemas/Error"}}}}}}},\
    "/metrics":{"get":{"summary":"Prometheus text format","responses":{"200":{"description":"metrics"}}}},\
    "/openapi.json":{"get":{"summary":"This document","responses":{"200":{"description":"OpenAPI 3.1"}}}}\
    }}
    """
}
