#!/usr/bin/env python3
"""A developer's server forwarding one App Store Server Notification to a Handoff surface, written from issue 15's
text ("ASSN intake for servers that forward"), not from Handoff's code:

    POST /v1/app-store/assn/{surfaceId}
    body            JSON.stringify({ signedPayload })          the JWS exactly as Apple sent it
    x-ea-timestamp  unix seconds
    x-ea-signature  sha256=<hex HMAC-SHA256(secret, timestamp + "." + raw body)>

    python3 assn_client.py --secret SECRET --signed-payload JWS [--url FORWARDING_URL]
        [--timestamp T | --age-seconds S] [--tamper timestamp|body|signature] [--copies N]

Without --url it sends nothing and prints {"body_hex", "headers": [[name, value], ...]}: the exact request, for a
caller that sends it itself. With --url it POSTs the request (N identical copies at once with --copies, as a retrying
server might) and prints the same plus "responses": [{"status", "body"}, ...] in the order the copies were started.

--timestamp sets x-ea-timestamp (default: now); --age-seconds S makes it now - S (negative: in the future), as a
retry of a request first signed S seconds ago would carry. --tamper changes one thing after signing: the timestamp
header (one second earlier), the body (a space after the colon: the same JSON, other bytes) or the signature (its
last hex digit).
"""
import argparse
import hashlib
import hmac
import http.client
import json
import sys
import threading
import time
from urllib.parse import urlsplit


def quote_json_string(value):
    """ECMA-262 QuoteJSONString, as JSON.stringify writes a string: `"` and `\\` escaped, \\b \\t \\n \\f \\r short,
    other code units below 0x20 and lone surrogates as \\uXXXX (lowercase hex), everything else as is."""
    short = {0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r", 0x22: '\\"', 0x5C: "\\\\"}
    units = value.encode("utf-16-le", "surrogatepass")
    code_units = [int.from_bytes(units[i:i + 2], "little") for i in range(0, len(units), 2)]
    out = ['"']
    index = 0
    while index < len(code_units):
        unit = code_units[index]
        if unit in short:
            out.append(short[unit])
        elif unit < 0x20:
            out.append("\\u%04x" % unit)
        elif 0xD800 <= unit <= 0xDBFF and index + 1 < len(code_units) and 0xDC00 <= code_units[index + 1] <= 0xDFFF:
            pair = (unit - 0xD800) * 0x400 + (code_units[index + 1] - 0xDC00) + 0x10000
            out.append(chr(pair))
            index += 1
        elif 0xD800 <= unit <= 0xDFFF:
            out.append("\\u%04x" % unit)
        else:
            out.append(chr(unit))
        index += 1
    out.append('"')
    return "".join(out)


def forward_body(signed_payload):
    """The bytes of JSON.stringify({ signedPayload }) in UTF-8: no spaces, the one key."""
    return ("{" + quote_json_string("signedPayload") + ":" + quote_json_string(signed_payload) + "}").encode("utf-8")


def signature(secret, timestamp, body):
    return "sha256=" + hmac.new(secret.encode("utf-8"), timestamp.encode("ascii") + b"." + body,
                                hashlib.sha256).hexdigest()


def build(args):
    timestamp = args.timestamp if args.timestamp is not None else str(int(time.time()) - args.age_seconds)
    body = forward_body(args.signed_payload)
    signed = signature(args.secret, timestamp, body)
    if args.tamper == "timestamp":
        timestamp = str(int(timestamp) - 1)
    elif args.tamper == "body":
        body = body.replace(b'":"', b'": "', 1)
    elif args.tamper == "signature":
        signed = signed[:-1] + ("0" if signed[-1] != "0" else "1")
    headers = [("content-type", "application/json"), ("x-ea-timestamp", timestamp), ("x-ea-signature", signed)]
    return body, headers


def post(url, body, headers):
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=30)
    try:
        connection.request("POST", parts.path, body=body, headers=dict(headers))
        response = connection.getresponse()
        return {"status": response.status, "body": response.read().decode("utf-8", "replace")}
    finally:
        connection.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--secret", required=True)
    parser.add_argument("--signed-payload", required=True)
    parser.add_argument("--url")
    parser.add_argument("--timestamp")
    parser.add_argument("--age-seconds", type=int, default=0)
    parser.add_argument("--tamper", choices=["timestamp", "body", "signature"])
    parser.add_argument("--copies", type=int, default=1)
    args = parser.parse_args()

    body, headers = build(args)
    result = {"body_hex": body.hex(), "headers": [list(pair) for pair in headers]}
    if args.url:
        responses = [None] * args.copies
        start = threading.Barrier(args.copies)

        def send(index):
            start.wait()
            try:
                responses[index] = post(args.url, body, headers)
            except OSError as error:
                responses[index] = {"status": 0, "body": str(error)}

        threads = [threading.Thread(target=send, args=(index,)) for index in range(args.copies)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        result["responses"] = responses
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
