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
    "info":{"title":"Handoff","version":"0.1.0","description":"Carries a web purchase into a mobile app. \
    Prometheus metrics (GET /metrics) are not served on this port but on a listener of their own \
    (METRICS_ADDRESS, default 127.0.0.1:9464)."},\
    "components":{"schemas":{"Error":{"type":"object","required":["statusCode","message"],\
    "properties":{"statusCode":{"type":"integer"},"code":{"type":"string"},"message":{"type":"string"}}},\
    "Project":{"type":"object","properties":{"projectId":{"type":"string","format":"uuid"},\
    "orgId":{"type":"string","format":"uuid"},"name":{"type":"string"},"paywallUrl":{"type":["string","null"]},\
    "returnScheme":{"type":["string","null"]},"androidPackage":{"type":["string","null"]},\
    "iosBundleId":{"type":["string","null"]},"fingerprint":{"type":"boolean"},\
    "emailVerification":{"enum":["payment","mailbox"],"description":"what verifies a buyer's e-mail: payment \
    (redeeming a payment's handoff code, the default) or mailbox (only a code mailed to the address)"},\
    "tracker":{"enum":["none","appsflyer","adjust"]},"trackerLink":{"type":["string","null"],\
    "description":"https; with tracker adjust a *.go.link or *.adj.st link needs its own adj_t \
    (else 400 VALIDATION_TRACKER_LINK_ADJ_T_REQUIRED)"}}},\
    "Guid":{"type":"string","pattern":"^[A-Za-z0-9._:-]{1,64}$","minLength":1,"maxLength":64,\
    "description":"a buyer id, compared and returned exactly as first given (ABC and abc are two buyers); ids \
    Handoff mints are lowercase UUIDs; unset device ids (only zeros, the max UUID, null, nil, undefined) and . or .. \
    are refused with VALIDATION_GUID_FORMAT"}},\
    "securitySchemes":{"secretKey":{"type":"http","scheme":"bearer","description":"sk_live_…"}}},\
    "paths":{\
    "/healthz":{"get":{"summary":"The process answers","responses":{"200":{"description":"alive"}}}},\
    "/readyz":{"get":{"summary":"Postgres and Redis answer","responses":{"200":{"description":"ready"},\
    "503":{"description":"a dependency is down; the message names it",\
    "content":{"application/json":{"schema":{"$ref":"#/components/schemas/Error"}}}}}}},\
    "/openapi.json":{"get":{"summary":"This document","responses":{"200":{"description":"OpenAPI 3.1"}}}},\
    "/s2s/v1/project":{\
    "get":{"summary":"The key's project settings","security":[{"secretKey":[]}],"responses":{\
    "200":{"description":"the project",\
    "content":{"application/json":{"schema":{"$ref":"#/components/schemas/Project"}}}},\
    "401":{"description":"missing, malformed, unknown or revoked key"},\
    "429":{"description":"over the key's limit, or over 20 failed key checks per minute from this address"}}},\
    "patch":{"summary":"Change the key's project settings (absent fields kept, null clears)",\
    "security":[{"secretKey":[]}],"requestBody":{"content":{"application/json":{"schema":{"type":"object"}}}},\
    "responses":{"200":{"description":"the updated project"},\
    "400":{"description":"a field is refused; the message names it"},\
    "401":{"description":"missing, malformed, unknown or revoked key"},"413":{"description":"body over 4096 bytes"}}}},\
    "/s2s/v1/users":{"post":{"summary":"Find or create a buyer by externalId or (verified) e-mail",\
    "security":[{"secretKey":[]}],"requestBody":{"content":{"application/json":{"schema":{"type":"object",\
    "properties":{"externalId":{"type":["string","null"]},"email":{"type":["string","null"]}}}}}},\
    "responses":{"200":{"description":"{guid, user_id, paywallUrl}","content":{"application/json":{"schema":{\
    "type":"object","properties":{"guid":{"$ref":"#/components/schemas/Guid"},\
    "user_id":{"$ref":"#/components/schemas/Guid"},\
    "paywallUrl":{"type":["string","null"]}}}}}},\
    "400":{"description":"neither field, or a field is refused; the message names it"},\
    "401":{"description":"missing, malformed, unknown or revoked key"},"413":{"description":"body over 4096 bytes"},\
    "503":{"description":"identity secrets not configured"}}}},\
    "/s2s/v1/payments":{"post":{"summary":"Record a payment; mint its handoff code (72 h) and install token (30 d)",\
    "security":[{"secretKey":[]}],"requestBody":{"content":{"application/json":{"schema":{"type":"object",\
    "required":["guid","paymentId","amount","currency","productId","entitlement","expiresAt"],\
    "properties":{"guid":{"$ref":"#/components/schemas/Guid"},"paymentId":{"type":"string"},\
    "amount":{"type":"integer","minimum":0},"currency":{"type":"string","pattern":"^[A-Z]{3}$"},\
    "productId":{"type":"string"},"entitlement":{"type":"string"},\
    "expiresAt":{"type":["string","null"],"format":"date-time",\
    "description":"an instant in the years 1970-9999 after its offset is applied; null = lifetime"},\
    "email":{"type":["string","null"]},\
    "paywallId":{"type":["string","null"]}}}}}},\
    "responses":{"200":{"description":"{paymentId, guid, handoff:{code, expiresAt, returnLink, trackerUrl, \
    postPaymentUrl}, install:{token, expiresAt, playStoreUrl, trackerUrl}}; trackerUrl: the project's tracker link \
    into the app (handoff) or to the store (install), null without a tracker; a repeat answers the same"},\
    "400":{"description":"a field is refused (named), or VISITOR_ID_FOREIGN_PROJECT"},\
    "401":{"description":"missing, malformed, unknown or revoked key"},\
    "409":{"description":"PAYMENT_CONFLICT: paymentId recorded with another body"},\
    "413":{"description":"body over 4096 bytes"},"503":{"description":"identity secrets not configured"}}}},\
    "/s2s/v1/payments/{paymentId}/refund":{"post":{"summary":"Refund a payment: revoke its entitlement (repeats harmless)",\
    "security":[{"secretKey":[]}],\
    "parameters":[{"name":"paymentId","in":"path","required":true,"schema":{"type":"string"}}],\
    "responses":{"200":{"description":"{entitlement, paymentId, refundedAt, status: refunded}"},\
    "401":{"description":"missing, malformed, unknown or revoked key"},\
    "404":{"description":"no payment with this paymentId in the key's organization"}}}},\
    "/s2s/v1/users/{guid}":{"get":{"summary":"A buyer: home project, externalId, e-mail verified, created",\
    "security":[{"secretKey":[]}],\
    "parameters":[{"name":"guid","in":"path","required":true,"schema":{"$ref":"#/components/schemas/Guid"}}],\
    "responses":{"200":{"description":"{guid, projectId, externalId, emailVerified, createdAt}"},\
    "400":{"description":"VALIDATION_GUID_FORMAT, or VISITOR_ID_FOREIGN_PROJECT"},\
    "401":{"description":"missing, malformed, unknown or revoked key"},"404":{"description":"no buyer with this guid"}}}},\
    "/s2s/v1/users/{guid}/entitlements":{"get":{"summary":"A buyer's entitlements, judged at read time",\
    "security":[{"secretKey":[]}],\
    "parameters":[{"name":"guid","in":"path","required":true,"schema":{"$ref":"#/components/schemas/Guid"}}],\
    "responses":{"200":{"description":"{guid, active, entitlements:[{entitlement, productId, paymentId, \
    status: active|expired|refunded, expiresAt}]}; an unknown guid is active:false with an empty list"},\
    "400":{"description":"VALIDATION_GUID_FORMAT, or VISITOR_ID_FOREIGN_PROJECT"},\
    "401":{"description":"missing, malformed, unknown or revoked key"}}}},\
    "/s2s/v1/events":{"get":{"summary":"The organization's history with each event's hash, for finance",\
    "security":[{"secretKey":[]}],\
    "parameters":[{"name":"after","in":"query","schema":{"type":"integer","minimum":0,"default":0}},\
    {"name":"limit","in":"query","schema":{"type":"integer","minimum":1,"maximum":1000,"default":100}}],\
    "responses":{"200":{"description":"{events:[{org_seq, event_type, recorded_at, data, metadata, prev_hash, hash, …}], \
    nextAfter}; personal data opened, or {erased:true} once erased"},\
    "400":{"description":"after or limit out of range (named)"},\
    "401":{"description":"missing, malformed, unknown or revoked key"}}}},\
    "/public/entitlements":{"get":{"summary":"A buyer's entitlements, for devices",\
    "parameters":[{"name":"projectId","in":"query","required":true,"schema":{"type":"string"}},\
    {"name":"guid","in":"query","required":true,"schema":{"$ref":"#/components/schemas/Guid"}}],"responses":{\
    "200":{"description":"{success:true, data:{guid, active, entitlements:[…]}}"},\
    "400":{"description":"VALIDATION_GUID_FORMAT, or VISITOR_ID_FOREIGN_PROJECT"},\
    "404":{"description":"an unknown project"},\
    "429":{"description":"over 60 per minute from this IP"},"503":{"description":"rate limiting unavailable"}}}},\
    "/public/paywall/buyer":{"get":{"summary":"Who the buyer on the paywall is (origin=app id, else a pass)",\
    "parameters":[{"name":"projectId","in":"query","required":true,"schema":{"type":"string"}},\
    {"name":"origin","in":"query","schema":{"type":"string"}},\
    {"name":"id","in":"query","schema":{"$ref":"#/components/schemas/Guid"},\
    "description":"the app's buyer id, read with origin=app"},\
    {"name":"pass","in":"query","schema":{"type":"string"}}],"responses":{\
    "200":{"description":"{success:true, data:{guid, source: id|pass}}"},\
    "400":{"description":"VISITOR_ID_FOREIGN_PROJECT, or VALIDATION_GUID_FORMAT for an id that is not a Guid"},\
    "404":{"description":"nothing usable, a tampered or expired pass, or an unknown project"},\
    "429":{"description":"over 30 per minute from this IP"},"503":{"description":"rate limiting unavailable"}}}},\
    "/done/{pageToken}":{"get":{"summary":"The post-payment page (HTML): the code, open-the-app and store buttons",\
    "parameters":[{"name":"pageToken","in":"path","required":true,"schema":{"type":"string"}}],"responses":{\
    "200":{"description":"text/html (English or Russian by Accept-Language); a redeemed or expired code is not \
    shown","content":{"text/html":{}}},\
    "404":{"description":"one fixed HTML page for every bad, tampered or unknown token",\
    "content":{"text/html":{}}}}}},\
    "/public/handoff/fingerprint":{"post":{"summary":"The post-payment page's script sends the browser fingerprint",\
    "requestBody":{"content":{"application/json":{"schema":{"type":"object","required":["token","screen"],\
    "properties":{"token":{"type":"string"},"screen":{"type":"string","pattern":"^[1-9][0-9]{0,4}x[1-9][0-9]{0,4}$"},\
    "timezone":{"type":"string"},"language":{"type":"string"}}}}}},\
    "responses":{"204":{"description":"accepted (nothing is kept for a project with fingerprinting off)"},\
    "400":{"description":"a field is refused; the message names it"},\
    "404":{"description":"no page has this token"},"413":{"description":"body over 1024 bytes"},\
    "429":{"description":"over 30 per minute from this IP"},\
    "503":{"description":"rate limiting unavailable, or identity secrets not configured"}}}},\
    "/public/handoff/resolve-by-fingerprint":{"post":{"summary":"Learn the buyer's guid from a recorded fingerprint",\
    "requestBody":{"content":{"application/json":{"schema":{"type":"object",\
    "required":["projectId","platform","osVersion","screen"],"properties":{"projectId":{"type":"string"},\
    "platform":{"enum":["ios","android"]},"osVersion":{"type":"string"},"screen":{"type":"string"},\
    "timezone":{"type":"string"},"language":{"type":"string"},"bundleId":{"type":"string"}}}}}},\
    "responses":{"200":{"description":"{success:true, data:{guid, matchMethod: fingerprint|ip}}; the fingerprint \
    is spent"},\
    "400":{"description":"a field is missing or refused (named); VALIDATION_BUNDLE_ID_FORMAT"},\
    "404":{"description":"one body for a miss, an ambiguity, an unknown or disabled project, another bundle id"},\
    "413":{"description":"body over 1024 bytes"},"429":{"description":"over 10 per minute from this IP"},\
    "503":{"description":"rate limiting unavailable, or identity secrets not configured"}}}},\
    "/public/handoff/resolve":{"get":{"summary":"Exchange a handoff code or install token, once, for its guid",\
    "parameters":[{"name":"code","in":"query","required":true,"schema":{"type":"string"}}],"responses":{\
    "200":{"description":"{success:true, data:{guid, projectId}}"},\
    "404":{"description":"the same body for an unknown, expired, used, malformed or missing code"},\
    "429":{"description":"over 10 per minute from this IP, or a recently failed IP while the failed-lookup budget is \
    exhausted"},"503":{"description":"rate limiting unavailable, or identity secrets not configured"}}}},\
    "/public/handoff/email-recovery/request":{"post":{"summary":"Ask for a recovery mail (sent only to a buyer \
    with a payment, at most one per address per 20 minutes)",\
    "parameters":[{"name":"Accept-Language","in":"header","schema":{"type":"string"},\
    "description":"ru or en picks the mail's language (default en)"}],\
    "requestBody":{"content":{"application/json":{"schema":{"type":"object","required":["projectId","email"],\
    "properties":{"projectId":{"type":"string","format":"uuid"},"email":{"type":"string"}}}}}},"responses":{\
    "204":{"description":"accepted, whether or not the address or project is known; empty body"},\
    "400":{"description":"a malformed body; the message names the field"},\
    "413":{"description":"body over 1024 bytes"},\
    "429":{"description":"over 5 per 15 minutes from this IP"},\
    "503":{"description":"rate limiting unavailable, or identity secrets not configured"}}}}\
    }}
    """
}
