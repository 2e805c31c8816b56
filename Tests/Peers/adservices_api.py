#!/usr/bin/env python3
"""A stand-in for Apple's AdServices attribution API, for the apple-ads job tests:
`python3 adservices_api.py --port=PORT`; prints "listening" when ready.

Routes:
  POST /api/v1/   the API as Apple documents it: the body is one token (Content-Type text/plain); the answer is the
                  next one scripted for that token (the last repeats), or 404 for a token nobody scripted (Apple:
                  "no record yet")
  POST /_tokens   scripts a token: {"token": T, "answers": [{"status": N, "body": {...} or null}, ...]}
  GET  /_stats    {"calls": [{"path", "contentType", "body"}, ...]} in arrival order
"""
import argparse
import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.scripts = {}  # token -> answers still to give (the last one repeats)
        self.calls = []


class AdServicesAPI(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state = State()

    def log_message(self, format, *args):
        pass

    def reply(self, status, document):
        body = b"" if document is None else json.dumps(document, sort_keys=True).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def do_GET(self):
        if self.path == "/_stats":
            with self.state.lock:
                return self.reply(200, {"calls": list(self.state.calls)})
        return self.reply(404, None)

    def do_POST(self):
        body = self.body()
        if self.path == "/_tokens":
            script = json.loads(body)
            with self.state.lock:
                self.state.scripts[script["token"]] = list(script["answers"])
            return self.reply(200, {"ok": True})
        if self.path != "/api/v1/":
            return self.reply(404, None)
        token = body.decode("utf-8", "replace")
        with self.state.lock:
            self.state.calls.append({"path": self.path, "contentType": self.headers.get("Content-Type"),
                                     "body": token})
            answers = self.state.scripts.get(token)
            if not answers:
                answer = {"status": 404, "body": None}
            elif len(answers) > 1:
                answer = answers.pop(0)
            else:
                answer = answers[0]
        return self.reply(answer["status"], answer.get("body"))


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
    arguments = parser.parse_args()
    server = ThreadingHTTPServer((arguments.host, arguments.port), AdServicesAPI)
    server.daemon_threads = True
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print("listening", flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
