#!/usr/bin/env python3
"""A store-notification forward receiver for the forwarding tests, written from issue 14's text (not from the
worker's code): it checks both signature schemes and records the exact bytes it received.

    python3 forward_receiver.py --port PORT --log FILE [--host 127.0.0.1] [--x3-token TOKEN]
        [--attribloom-secret SECRET] [--audit-public-key HEX] [--tls-cert CERT --tls-key KEY] [--delay-ms N]

Prints "listening" once it accepts connections (over TLS with --tls-cert/--tls-key).

Paths (POST):
  /x3/...                   scheme x3: content-type application/json, x-x3-forwarded 1,
                            x-x3-signature sha256=<hex HMAC-SHA256(body, key = the store token)>
  /v1/app-store/assn/<id>   scheme attribloom: body exactly {"signedPayload":"<JWS>"}, content-type application/json,
                            x-ea-timestamp unix seconds (digits), x-ea-signature
                            sha256=<hex HMAC-SHA256(key = secret, timestamp + "." + body)>
  /audit/...                an org's signed chain head (issue 16): content-type application/json,
                            x-handoff-audit-key-id <16 hex>, x-handoff-audit-signature ed25519=<128 hex>, the
                            Ed25519 signature of the body by --audit-public-key (checked with the openssl command)
  /redirect?to=URL          302 to URL, nothing checked
With --delay-ms N every request waits N milliseconds before it is answered (like a real receiver that takes its
time; requests wait concurrently, one thread each), for benchmarks.
A query `status=N` makes the answer N after the checks passed (default 200); `answer=TEXT` is the body sent back.
A request whose checks fail is answered 401 with the reason. Every request is appended to --log as one JSON line:
{"path", "headers": [[name, value]...], "body_hex", "peer_port", "verdict": "ok" | "<reason>", "signed_payload"?}.
"""
import argparse
import base64
import hashlib
import hmac
import json
import os
import re
import signal
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

SIGNATURE = re.compile(r"^sha256=[0-9a-f]{64}$")
JWS = re.compile(r"^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$")
LOCK = threading.Lock()


def expected(key, message):
    return "sha256=" + hmac.new(key, message, hashlib.sha256).hexdigest()


class Receiver(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    settings = None

    def log_message(self, format, *args):
        pass

    def reply(self, status, body, extra=()):
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def check_x3(self, body):
        token = self.settings.x3_token
        if token is None:
            return "no x3 token configured"
        if self.headers.get("content-type") != "application/json":
            return "content-type is not application/json"
        if self.headers.get("x-x3-forwarded") != "1":
            return "x-x3-forwarded is not 1"
        signature = self.headers.get("x-x3-signature") or ""
        if not SIGNATURE.match(signature):
            return "x-x3-signature is not sha256=<64 hex>"
        if not hmac.compare_digest(signature, expected(token.encode(), body)):
            return "x-x3-signature does not verify"
        return "ok"

    def check_attribloom(self, body, record):
        secret = self.settings.attribloom_secret
        if secret is None:
            return "no attribloom secret configured"
        if self.headers.get("content-type") != "application/json":
            return "content-type is not application/json"
        timestamp = self.headers.get("x-ea-timestamp") or ""
        if not timestamp.isdigit() or len(timestamp) > 12:
            return "x-ea-timestamp is not unix seconds"
        try:
            parsed = json.loads(body)
        except ValueError:
            return "the body is not JSON"
        if not isinstance(parsed, dict) or list(parsed) != ["signedPayload"] or not isinstance(
                parsed["signedPayload"], str):
            return "the body is not {\"signedPayload\": <string>}"
        jws = parsed["signedPayload"]
        record["signed_payload"] = jws
        if body != b'{"signedPayload":"' + jws.encode() + b'"}':
            return "the body is not exactly {\"signedPayload\":\"<JWS>\"}"
        if not JWS.match(jws):
            return "signedPayload is not a compact JWS"
        signature = self.headers.get("x-ea-signature") or ""
        if not SIGNATURE.match(signature):
            return "x-ea-signature is not sha256=<64 hex>"
        if not hmac.compare_digest(signature, expected(secret.encode(), timestamp.encode() + b"." + body)):
            return "x-ea-signature does not verify"
        return "ok"

    def check_audit(self, body):
        public_key = self.settings.audit_public_key
        if public_key is None:
            return "no audit public key configured"
        if self.headers.get("content-type") != "application/json":
            return "content-type is not application/json"
        key_id = self.headers.get("x-handoff-audit-key-id") or ""
        if key_id != hashlib.sha256(bytes.fromhex(public_key)).hexdigest()[:16]:
            return "x-handoff-audit-key-id is not the id of the audit public key"
        signature = self.headers.get("x-handoff-audit-signature") or ""
        if not re.match(r"^ed25519=[0-9a-f]{128}$", signature):
            return "x-handoff-audit-signature is not ed25519=<128 hex>"
        spki = bytes.fromhex("302a300506032b6570032100" + public_key)
        pem = b"-----BEGIN PUBLIC KEY-----\n" + base64.b64encode(spki) + b"\n-----END PUBLIC KEY-----\n"
        with tempfile.TemporaryDirectory() as folder:
            files = {}
            for name, content in (("key.pem", pem), ("body", body), ("signature", bytes.fromhex(signature[8:]))):
                files[name] = os.path.join(folder, name)
                with open(files[name], "wb") as file:
                    file.write(content)
            result = subprocess.run(["openssl", "pkeyutl", "-verify", "-pubin", "-inkey", files["key.pem"], "-rawin",
                                     "-in", files["body"], "-sigfile", files["signature"]], capture_output=True)
        return "ok" if result.returncode == 0 else "x-handoff-audit-signature does not verify"

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if self.settings.delay_ms > 0:
            time.sleep(self.settings.delay_ms / 1000)
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        record = {
            "path": self.path,
            "headers": [[name, value] for name, value in self.headers.items()],
            "body_hex": body.hex(),
            "peer_port": self.client_address[1],
        }
        if url.path == "/redirect":
            record["verdict"] = "redirect"
            self.log(record)
            return self.reply(302, b"moved", extra=[("Location", query.get("to", ["/"])[0])])
        if url.path.startswith("/x3/"):
            verdict = self.check_x3(body)
        elif re.match(r"^/v1/app-store/assn/[^/]+$", url.path):
            verdict = self.check_attribloom(body, record)
        elif url.path.startswith("/audit/"):
            verdict = self.check_audit(body)
        else:
            verdict = "unknown path"
        record["verdict"] = verdict
        self.log(record)
        if verdict != "ok":
            return self.reply(401, verdict.encode())
        status = int(query.get("status", ["200"])[0])
        answer = query.get("answer", ["accepted"])[0].encode()
        return self.reply(status, answer)

    do_GET = do_PUT = do_POST

    def log(self, record):
        with LOCK, open(self.settings.log, "a", encoding="utf-8") as log:
            log.write(json.dumps(record, sort_keys=True) + "\n")


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
    parser.add_argument("--log", required=True)
    parser.add_argument("--x3-token")
    parser.add_argument("--attribloom-secret")
    parser.add_argument("--audit-public-key")
    parser.add_argument("--tls-cert")
    parser.add_argument("--tls-key")
    parser.add_argument("--delay-ms", type=int, default=0)
    arguments = parser.parse_args()
    Receiver.settings = arguments
    open(arguments.log, "a").close()
    server = ThreadingHTTPServer((arguments.host, arguments.port), Receiver)
    server.daemon_threads = True
    if arguments.tls_cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(arguments.tls_cert, arguments.tls_key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print("listening", flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
