#!/usr/bin/env python3
"""A stand-in for Google's OAuth token endpoint and the Play Developer API, for PlayDeveloperAPITests and the
google-play job's tests (GooglePlayJobTests, GooglePlayWorkerTests).

    python3 play_api.py --port PORT --public-key PEM --client-email EMAIL [--token-lifetime SECONDS]

Prints "listening" when ready. Python 3 standard library only; signatures are checked with the `openssl` command.

Routes:
  POST /token
      OAuth 2 JWT-bearer grant (RFC 7523): grant_type must be urn:ietf:params:oauth:grant-type:jwt-bearer and
      assertion an RS256 JWT whose signature verifies with --public-key (`openssl dgst -sha256 -verify`), with
      iss = --client-email, scope = https://www.googleapis.com/auth/androidpublisher, aud = this endpoint's URL
      (http://<Host header>/token), iat no more than 60 s ahead, exp after now and at most 3600 s after iat.
      200 {"access_token","expires_in","token_type":"Bearer"}; else 400 {"error":"invalid_grant",
      "error_description"} (or "unsupported_grant_type", "invalid_request").
  GET /androidpublisher/v3/applications/<package>/purchases/subscriptionsv2/tokens/<token>
  GET /androidpublisher/v3/applications/<package>/purchases/products/<product>/tokens/<token>
      Only with "Authorization: Bearer <a token this server issued and has not revoked>", else 401. The purchases
      are the fixtures in PURCHASES below; an unknown one is 404; the token "unavailable" is 503.
  POST /_revoke       forgets every issued access token (the next API call gets 401)
  POST /_purchases    adds a purchase for the tests of the google-play job: {"kind": "subscription"|"product",
                      "package", "product" (products only), "token", "answer": <the JSON Google would give>,
                      "failures": N (optional: the first N calls for it answer 503)}; 200 {}
  GET  /_stats        {"tokensIssued", "assertions": [{"header", "claims"}...], "apiCalls", "lastAuthorization"}
"""
import argparse
import base64
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote

SCOPE = "https://www.googleapis.com/auth/androidpublisher"
GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer"
PACKAGE = "com.example.app"

# (kind, package, product or None, purchase token) -> the answer Google would give.
PURCHASES = {
    ("subscription", PACKAGE, None, "sub-token-1"): {
        "kind": "androidpublisher#subscriptionPurchaseV2",
        "regionCode": "US",
        "startTime": "2025-06-15T12:00:00.000Z",
        "subscriptionState": "SUBSCRIPTION_STATE_ACTIVE",
        "latestOrderId": "GPA.3345-1234-5678-90123",
        "acknowledgementState": "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED",
        "externalAccountIdentifiers": {"obfuscatedExternalAccountId": "buyer-guid-123"},
        "testPurchase": {},
        "lineItems": [{
            "productId": "monthly001",
            "expiryTime": "2025-07-15T12:00:00.123Z",
            "latestSuccessfulOrderId": "GPA.3345-1234-5678-90123..1",
            "autoRenewingPlan": {
                "autoRenewEnabled": True,
                "recurringPrice": {"currencyCode": "USD", "units": "9", "nanos": 990000000},
            },
            "offerDetails": {"basePlanId": "monthly", "offerTags": ["intro"]},
        }],
    },
    ("subscription", PACKAGE, None, "sub-token-expired"): {
        "kind": "androidpublisher#subscriptionPurchaseV2",
        "subscriptionState": "SUBSCRIPTION_STATE_EXPIRED",
        "latestOrderId": "GPA.1111-2222-3333-44444",
        "acknowledgementState": "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED",
        "lineItems": [{"productId": "yearly001", "expiryTime": "2024-01-01T00:00:00Z"}],
    },
    ("product", PACKAGE, "coins_100", "otp-token-1"): {
        "kind": "androidpublisher#productPurchase",
        "purchaseTimeMillis": "1750000000123",
        "purchaseState": 0,
        "consumptionState": 0,
        "orderId": "GPA.9876-5432-1098-76543",
        "purchaseType": 0,
        "acknowledgementState": 1,
        "productId": "coins_100",
        "quantity": 1,
        "obfuscatedExternalAccountId": "buyer-guid-456",
        "regionCode": "DE",
    },
}


def b64url_decode(text):
    if not text or any(c not in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_" for c in text):
        raise ValueError("not unpadded base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def openssl_verify(public_key_path, message, signature):
    """True when `signature` is an RS256 signature of `message` under the PEM public key (checked by openssl)."""
    with tempfile.TemporaryDirectory() as folder:
        data_path = os.path.join(folder, "data")
        signature_path = os.path.join(folder, "signature")
        with open(data_path, "wb") as data_file:
            data_file.write(message)
        with open(signature_path, "wb") as signature_file:
            signature_file.write(signature)
        result = subprocess.run(
            ["openssl", "dgst", "-sha256", "-verify", public_key_path, "-signature", signature_path, data_path],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        return result.returncode == 0 and result.stdout.strip() == b"Verified OK"


class State:
    def __init__(self, public_key, client_email, token_lifetime):
        self.public_key = public_key
        self.client_email = client_email
        self.token_lifetime = token_lifetime
        self.lock = threading.Lock()
        self.tokens = {}  # access token -> expiry (unix seconds)
        self.tokens_issued = 0
        self.assertions = []
        self.api_calls = 0
        self.last_authorization = None
        self.purchases = {}  # added with /_purchases, same keys as PURCHASES
        self.failures = {}  # key -> calls still to answer 503


class PlayAPI(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state = None

    def log_message(self, format, *args):
        pass

    def reply(self, status, document):
        body = json.dumps(document, sort_keys=True).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=UTF-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def do_POST(self):
        body = self.body()
        if self.path == "/token":
            return self.token(body)
        if self.path == "/_purchases":
            return self.add_purchase(body)
        if self.path == "/_revoke":
            with self.state.lock:
                self.state.tokens.clear()
            return self.reply(200, {})
        return self.reply(404, {"error": {"code": 404, "message": "no such route"}})

    def token(self, body):
        if self.headers.get("Content-Type", "").split(";")[0].strip() != "application/x-www-form-urlencoded":
            return self.reply(400, {"error": "invalid_request", "error_description": "form body expected"})
        form = parse_qs(body.decode("ascii", "replace"), keep_blank_values=True)
        if form.get("grant_type") != [GRANT]:
            return self.reply(400, {"error": "unsupported_grant_type", "error_description": "jwt-bearer only"})
        assertion = (form.get("assertion") or [""])[0]
        problem = self.check_assertion(assertion)
        if problem:
            return self.reply(400, {"error": "invalid_grant", "error_description": problem})
        access_token = "ya29.stand-in-" + secrets.token_urlsafe(24)
        with self.state.lock:
            self.state.tokens[access_token] = time.time() + self.state.token_lifetime
            self.state.tokens_issued += 1
        return self.reply(200, {"access_token": access_token, "expires_in": self.state.token_lifetime,
                                "token_type": "Bearer"})

    def add_purchase(self, body):
        try:
            document = json.loads(body)
            kind = document["kind"]
            if kind not in ("subscription", "product") or not isinstance(document["answer"], dict):
                raise ValueError("kind or answer")
            key = (kind, document["package"], document.get("product") if kind == "product" else None,
                   document["token"])
            failures = int(document.get("failures", 0))
        except (ValueError, KeyError, TypeError, json.JSONDecodeError):
            return self.reply(400, {"error": "a purchase needs kind, package, token and answer"})
        with self.state.lock:
            self.state.purchases[key] = document["answer"]
            self.state.failures[key] = failures
        return self.reply(200, {})

    def check_assertion(self, assertion):
        parts = assertion.split(".")
        if len(parts) != 3:
            return "the assertion is not a compact JWT"
        try:
            header = json.loads(b64url_decode(parts[0]))
            claims = json.loads(b64url_decode(parts[1]))
            signature = b64url_decode(parts[2])
        except (ValueError, json.JSONDecodeError):
            return "the assertion's parts are not base64url JSON"
        with self.state.lock:
            self.state.assertions.append({"header": header, "claims": claims})
        if header.get("alg") != "RS256" or header.get("typ") != "JWT":
            return "alg must be RS256 and typ JWT"
        signing_input = (parts[0] + "." + parts[1]).encode("ascii")
        if not openssl_verify(self.state.public_key, signing_input, signature):
            return "Invalid JWT Signature."
        now = time.time()
        expected_audience = "http://%s/token" % self.headers.get("Host", "")
        if claims.get("iss") != self.state.client_email:
            return "iss is not the service account"
        if claims.get("scope") != SCOPE:
            return "scope is not the androidpublisher scope"
        if claims.get("aud") != expected_audience:
            return "aud is not the token URI"
        iat, exp = claims.get("iat"), claims.get("exp")
        if not isinstance(iat, int) or not isinstance(exp, int):
            return "iat and exp must be integers"
        if iat > now + 60 or exp <= now or exp - iat > 3600:
            return "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe."
        return None

    def do_GET(self):
        if self.path == "/_stats":
            with self.state.lock:
                return self.reply(200, {"tokensIssued": self.state.tokens_issued, "assertions": self.state.assertions,
                                        "apiCalls": self.state.api_calls,
                                        "lastAuthorization": self.state.last_authorization})
        parts = [unquote(p) for p in self.path.split("?")[0].split("/") if p]
        with self.state.lock:
            self.state.api_calls += 1
            self.state.last_authorization = self.headers.get("Authorization")
        if len(parts) < 6 or parts[:3] != ["androidpublisher", "v3", "applications"] or parts[4] != "purchases":
            return self.reply(404, {"error": {"code": 404, "message": "no such route"}})
        if not self.authorized():
            return self.reply(401, {"error": {"code": 401, "status": "UNAUTHENTICATED",
                                              "message": "Request had invalid authentication credentials."}})
        package = parts[3]
        if len(parts) == 8 and parts[5] == "subscriptionsv2" and parts[6] == "tokens":
            key = ("subscription", package, None, parts[7])
        elif len(parts) == 9 and parts[5] == "products" and parts[7] == "tokens":
            key = ("product", package, parts[6], parts[8])
        else:
            return self.reply(404, {"error": {"code": 404, "message": "no such route"}})
        with self.state.lock:
            failing = self.state.failures.get(key, 0) > 0
            if failing:
                self.state.failures[key] -= 1
            answer = self.state.purchases.get(key, PURCHASES.get(key))
        if key[3] == "unavailable" or failing:
            return self.reply(503, {"error": {"code": 503, "status": "UNAVAILABLE", "message": "try later"}})
        if answer is None:
            return self.reply(404, {"error": {"code": 404, "status": "NOT_FOUND",
                                              "message": "The purchase token was not found."}})
        return self.reply(200, answer)

    def authorized(self):
        value = self.headers.get("Authorization", "")
        if not value.startswith("Bearer "):
            return False
        with self.state.lock:
            expiry = self.state.tokens.get(value[len("Bearer "):])
        return expiry is not None and expiry > time.time()


def exit_with_parent():
    """Exits when the test process that started this one goes away, even if it crashed."""
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def main():
    # A child inherits its parent's blocked-signal mask; the Swift test runner blocks SIGTERM in its threads.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
    exit_with_parent()
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--public-key", required=True)
    parser.add_argument("--client-email", required=True)
    parser.add_argument("--token-lifetime", type=int, default=3600)
    arguments = parser.parse_args()
    PlayAPI.state = State(arguments.public_key, arguments.client_email, arguments.token_lifetime)
    server = ThreadingHTTPServer((arguments.host, arguments.port), PlayAPI)
    server.daemon_threads = True
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print("listening", flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
