#!/usr/bin/env python3
"""Verify a `handoff audit export --format jsonl` file: org_seq continuity and every hash (docs/audit.md).

usage: python3 audit_verify.py export.jsonl   (standard library only; exits 0 and prints OK, or 1 and the seq)
"""
import hashlib
import json
import sys

HASHED = ("data", "event_id", "event_type", "metadata", "org_id", "org_seq",
          "recorded_at", "schema_version", "stream_id", "stream_version")


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def verify(lines):
    org, expected_seq, previous, count = None, None, None, 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        event = json.loads(line)
        seq = event["org_seq"]
        where = f"org {event.get('org_id')} org_seq {seq} (line {number})"
        if org is None:
            org, expected_seq = event["org_id"], seq
            previous = "00" * 32 if seq == 1 else event["prev_hash"]  # a --from-seq export trusts its first link
        if event["org_id"] != org:
            return f"BROKEN at {where}: another org in the file"
        if seq != expected_seq:
            return f"BROKEN at org_seq {expected_seq} (line {number}): found org_seq {seq}"
        if event["prev_hash"] != previous:
            return f"BROKEN at {where}: prev_hash is not the previous event's hash"
        body = canonical({key: event[key] for key in HASHED})
        if hashlib.sha256(bytes.fromhex(previous) + body).hexdigest() != event["hash"]:
            return f"BROKEN at {where}: hash does not match the event"
        previous, expected_seq, count = event["hash"], seq + 1, count + 1
    return f"OK {count} events, org {org}, last org_seq {expected_seq - 1 if count else 0}, last hash {previous}"


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    with open(sys.argv[1], encoding="utf-8") as export:
        result = verify(export)
    print(result)
    sys.exit(0 if result.startswith("OK") else 1)
