#!/usr/bin/env python3
"""A real HTTP peer for HTTPClientTests: `python3 http_receiver.py --port PORT`; prints "listening" when ready.

Routes (any method):
  /health             200 "ok"
  /status/<code>      that status code, body "status <code>"
  /slow/<seconds>     sleeps, then 200 "slow"
  /big/<n>            n bytes of "x" with Content-Length; /big/<n>?chunked=1 sends them chunked (no length)
  /redirect           302 to /echo/redirected
  anything else       200 with JSON {"method", "path", "headers": [[name, value]...], "body_hex"}
"""
import argparse
import json
import signal
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit, parse_qs


class Receiver(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def reply(self, status, body, content_type="text/plain", extra=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        url = urlsplit(self.path)
        parts = [p for p in url.path.split("/") if p]
        query = parse_qs(url.query)
        if parts == ["health"]:
            return self.reply(200, b"ok")
        if len(parts) == 2 and parts[0] == "status":
            code = int(parts[1])
            return self.reply(code, f"status {code}".encode())
        if len(parts) == 2 and parts[0] == "slow":
            time.sleep(float(parts[1]))
            return self.reply(200, b"slow")
        if len(parts) == 2 and parts[0] == "big":
            size = int(parts[1])
            if query.get("chunked") == ["1"]:
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                remaining = size
                while remaining > 0:
                    chunk = b"x" * min(remaining, 16384)
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    remaining -= len(chunk)
                self.wfile.write(b"0\r\n\r\n")
                return
            return self.reply(200, b"x" * size, "application/octet-stream")
        if parts == ["redirect"]:
            return self.reply(302, b"moved", extra=[("Location", "/echo/redirected")])
        echo = {
            "method": self.command,
            "path": self.path,
            "headers": [[name, value] for name, value in self.headers.items()],
            "body_hex": body.hex(),
        }
        return self.reply(200, json.dumps(echo, sort_keys=True).encode(), "application/json")

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = handle_any


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
    server = ThreadingHTTPServer((arguments.host, arguments.port), Receiver)
    server.daemon_threads = True
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print("listening", flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
