#!/usr/bin/env python3
"""A local SMTP sink: accepts every message and stores it on disk, for tests and infra/dev.

    python3 infra/smtp-sink.py --host 127.0.0.1 --port PORT --dir DIR

Each message becomes DIR/<timestamp>-<n>.eml (the DATA bytes as received, after SMTP dot-unstuffing) with a side
file DIR/<timestamp>-<n>.json holding the envelope: {"mail_from", "rcpt_tos", "peer", "received_at"}.
The .json is written first and the .eml renamed into place last, so a reader that sees the .eml sees both.
Prints "listening" (flushed) once the port accepts connections; exits cleanly on SIGTERM or SIGINT.
With --exit-with-parent it also exits when the process that started it goes away (tests use this, so a crashed
test run leaves no sink behind).
With --delay-ms N it waits N milliseconds before answering each message's DATA (like a real relay that takes its
time; connections wait concurrently), for bench/jobs.
With --tls-cert CERT --tls-key KEY it offers STARTTLS (and with --require-starttls refuses mail before it); with
--implicit-tls as well it speaks TLS from the first byte (SMTPS). Each .json then also records "tls": true when the
message arrived over TLS.
Needs aiosmtpd (Debian: python3-aiosmtpd).
"""
import argparse
import asyncio
import datetime
import itertools
import json
import os
import signal
import ssl
import sys
import threading
import time

from aiosmtpd.smtp import SMTP


class StoringHandler:
    """aiosmtpd handler that writes every accepted message into a folder."""

    def __init__(self, folder, delay_seconds=0.0):
        self.folder = folder
        self.delay_seconds = delay_seconds
        self.counter = itertools.count(1)

    async def handle_DATA(self, server, session, envelope):
        if self.delay_seconds > 0:
            await asyncio.sleep(self.delay_seconds)
        stamp = datetime.datetime.now(datetime.timezone.utc)
        base = os.path.join(self.folder, f"{stamp.strftime('%Y%m%dT%H%M%S.%fZ')}-{next(self.counter)}")
        content = envelope.original_content or envelope.content or b""
        if isinstance(content, str):
            content = content.encode("utf-8", "surrogateescape")
        meta = {
            "tls": server.transport is not None and server.transport.get_extra_info("ssl_object") is not None,
            "mail_from": envelope.mail_from,
            "rcpt_tos": list(envelope.rcpt_tos),
            "peer": list(session.peer) if isinstance(session.peer, tuple) else str(session.peer),
            "received_at": stamp.isoformat(),
            "size": len(content),
        }
        with open(base + ".json", "w", encoding="utf-8") as side:
            json.dump(meta, side, indent=2)
        with open(base + ".eml.tmp", "wb") as raw:
            raw.write(content)
        os.replace(base + ".eml.tmp", base + ".eml")
        return "250 2.0.0 Message stored"


async def serve(host, port, folder, max_size, tls=None, implicit=False, require_starttls=False, delay_seconds=0.0):
    loop = asyncio.get_running_loop()
    handler = StoringHandler(folder, delay_seconds)
    starttls = tls if tls is not None and not implicit else None
    server = await loop.create_server(
        lambda: SMTP(handler, data_size_limit=max_size, enable_SMTPUTF8=True, hostname="smtp-sink.local",
                     tls_context=starttls, require_starttls=require_starttls and starttls is not None),
        host=host, port=port, ssl=tls if implicit else None)
    stop = asyncio.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stop.set)
    print("listening", flush=True)
    await stop.wait()
    server.close()
    await server.wait_closed()


def exit_when_parent_exits():
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def main():
    # A child inherits its parent's blocked-signal mask (threaded parents often block SIGTERM): undo that.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
    parser = argparse.ArgumentParser(description="Store every SMTP message received as a file.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--dir", required=True, help="folder for the .eml and .json files (created if missing)")
    parser.add_argument("--max-size", type=int, default=10 << 20, help="largest message accepted, in bytes")
    parser.add_argument("--exit-with-parent", action="store_true", help="exit when the parent process exits")
    parser.add_argument("--tls-cert", help="PEM certificate chain: offer STARTTLS (or SMTPS with --implicit-tls)")
    parser.add_argument("--tls-key", help="PEM key of --tls-cert")
    parser.add_argument("--implicit-tls", action="store_true", help="TLS from the first byte (SMTPS)")
    parser.add_argument("--require-starttls", action="store_true", help="refuse mail before STARTTLS")
    parser.add_argument("--delay-ms", type=int, default=0, help="wait this long before answering each message")
    arguments = parser.parse_args()
    if arguments.exit_with_parent:
        exit_when_parent_exits()
    os.makedirs(arguments.dir, exist_ok=True)
    try:
        tls = None
        if arguments.tls_cert:
            tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            tls.load_cert_chain(arguments.tls_cert, arguments.tls_key)
        asyncio.run(serve(arguments.host, arguments.port, arguments.dir, arguments.max_size, tls,
                          arguments.implicit_tls, arguments.require_starttls, arguments.delay_ms / 1000))
    except OSError as error:
        print(f"smtp-sink: {error}", file=sys.stderr, flush=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
