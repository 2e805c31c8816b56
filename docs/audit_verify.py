#!/usr/bin/env python3
"""Verify a `handoff audit export` from docs/audit.md alone: header and trailer, org_seq continuity, every hash, and
signed chain heads.

usage: python3 audit_verify.py [--keys KEYS.json] [--head HEAD.json]... [--manifest MANIFEST] EXPORT
  EXPORT      a JSONL export, or a CSV export together with its --manifest file
  --keys      the audit public keys (`handoff audit keys`), as the auditor keeps them
  --head      a signed head kept outside the deployment (repeatable; needs --keys)
Exit status: 0 OK; 1 BROKEN (altered or cut off) or REFUSED (not a complete export); 2 bad arguments.
Standard library only, plus the `openssl` command (OpenSSL 3) to check Ed25519 signatures.
"""
import argparse
import base64
import csv
import hashlib
import json
import os
import subprocess
import sys
import tempfile

HASHED = ("data", "event_id", "event_type", "metadata", "org_id", "org_seq",
          "recorded_at", "schema_version", "stream_id", "stream_version")
EXPORTED = HASHED + ("global_pos", "tx_id", "prev_hash", "hash")
CSV_COLUMNS = ("org_id", "org_seq", "global_pos", "tx_id", "stream_id", "stream_version", "event_id", "event_type",
               "schema_version", "recorded_at", "data", "metadata", "prev_hash", "hash")
CSV_INTEGERS = ("org_seq", "global_pos", "tx_id", "stream_version", "schema_version")
HEADER = ("format_version", "from_seq", "kind", "org_id", "partial", "prev_hash")
TRAILER = ("count", "head", "kind", "last_hash", "last_org_seq")
HEAD_SIGNED = ("hash", "key_id", "org_id", "org_seq", "recorded_at", "signed_at")
ZERO_HASH = "00" * 32
ED25519_SPKI_PREFIX = bytes.fromhex("302a300506032b6570032100")


class Failure(Exception):
    """Why the export does not verify; the message starts with BROKEN or REFUSED."""


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def unique_members(pairs):
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError("an object has a member twice")
    return dict(pairs)


def parse(text, where):
    """One JSON value of the export; refused when it is not JSON or an object repeats a member."""
    try:
        return json.loads(text, object_pairs_hook=unique_members)
    except ValueError as error:
        raise Failure(f"BROKEN at {where}: not valid export JSON ({error})")


def is_hex(value, digits):
    return isinstance(value, str) and len(value) == digits and all(c in "0123456789abcdef" for c in value)


def is_count(value, least):
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


def check_header(header):
    if not isinstance(header, dict) or header.get("kind") != "header":
        raise Failure("REFUSED: the first line is not a header line (without it a file with its first lines "
                      "deleted cannot be told from a complete export)")
    if sorted(header) != list(HEADER) or header["format_version"] != 2 or not is_count(header["from_seq"], 1) \
            or not isinstance(header["partial"], bool) or not is_hex(header["prev_hash"], 64):
        raise Failure("REFUSED: the header line does not have the members and values of format_version 2")
    full = header["from_seq"] == 1
    if full != (not header["partial"]) or (full and header["prev_hash"] != ZERO_HASH):
        raise Failure("REFUSED: the header declares a start that is neither org_seq 1 with the zero prev_hash nor "
                      "a partial export")


def check_trailer(trailer):
    if not isinstance(trailer, dict) or trailer.get("kind") != "trailer":
        raise Failure("REFUSED: the last line is not a trailer line (the end of the export was cut off)")
    if sorted(trailer) != list(TRAILER) or not is_count(trailer["count"], 0) \
            or not is_count(trailer["last_org_seq"], 0) or not is_hex(trailer["last_hash"], 64):
        raise Failure("REFUSED: the trailer line does not have the members and values of format_version 2")


def check_head_shape(head, name):
    if not isinstance(head, dict) or sorted(head) != sorted(HEAD_SIGNED + ("signature",)) \
            or not is_count(head["org_seq"], 1) or not is_hex(head["hash"], 64) \
            or not is_hex(head["signature"], 128) or not is_hex(head["key_id"], 16):
        raise Failure(f"REFUSED: {name} is not a signed chain head")


def read_keys(document):
    """{key_id: raw 32-byte public key} of a `handoff audit keys` document; each key_id is checked."""
    keys = {}
    for entry in document.get("keys", []) if isinstance(document, dict) else []:
        raw = bytes.fromhex(entry["public_key"]) if is_hex(entry.get("public_key"), 64) else None
        if raw is None or hashlib.sha256(raw).hexdigest()[:16] != entry.get("key_id"):
            raise Failure("REFUSED: --keys holds a key whose key_id is not the start of SHA-256(public_key)")
        keys[entry["key_id"]] = raw
    return keys


def signature_verifies(head, raw_key):
    """Ed25519 over the canonical JSON of the six signed members, checked by `openssl pkeyutl`."""
    message = canonical({key: head[key] for key in HEAD_SIGNED})
    pem = b"-----BEGIN PUBLIC KEY-----\n" + base64.b64encode(ED25519_SPKI_PREFIX + raw_key) \
        + b"\n-----END PUBLIC KEY-----\n"
    with tempfile.TemporaryDirectory() as folder:
        paths = {name: os.path.join(folder, name) for name in ("key.pem", "message", "signature")}
        for name, content in (("key.pem", pem), ("message", message),
                              ("signature", bytes.fromhex(head["signature"]))):
            with open(paths[name], "wb") as file:
                file.write(content)
        result = subprocess.run(["openssl", "pkeyutl", "-verify", "-pubin", "-inkey", paths["key.pem"], "-rawin",
                                 "-in", paths["message"], "-sigfile", paths["signature"]], capture_output=True)
    return result.returncode == 0


def verify(header, rows, trailer, heads=(), keys=None):
    """Checks one export; returns the report lines, or raises Failure naming the first problem.

    header, trailer: the parsed header and trailer; rows: (where, event) pairs in file order; heads: signed heads
    kept outside the deployment ("--head"); keys: {key_id: raw public key} or None.
    """
    check_header(header)
    check_trailer(trailer)
    org, from_seq, previous = header["org_id"], header["from_seq"], header["prev_hash"]
    signed = [("--head", head) for head in heads]
    if trailer["head"] is not None:
        signed.append(("the trailer's head", trailer["head"]))
    wanted = set()
    for name, head in signed:
        check_head_shape(head, name)
        if head["org_id"] != org:
            raise Failure(f"REFUSED: {name} is a head of org {head['org_id']}, not of this export's org {org}")
        wanted.add(head["org_seq"])
    seen = {from_seq - 1: (previous, None)}
    expected, count = from_seq, 0
    for where, event in rows:
        if not isinstance(event, dict) or event.get("kind") is not None or sorted(event) != sorted(EXPORTED):
            raise Failure(f"BROKEN at org_seq {expected} ({where}): not an event line")
        seq = event["org_seq"]
        at = f"org {event['org_id']} org_seq {seq} ({where})"
        if event["org_id"] != org:
            raise Failure(f"BROKEN at {at}: another org in the file")
        if seq != expected:
            if count == 0:
                raise Failure(f"BROKEN at org_seq {expected} ({where}): the first event is org_seq {seq}, but the "
                              f"header declares from_seq {from_seq} (lines were removed at the start)")
            raise Failure(f"BROKEN at org_seq {expected} ({where}): found org_seq {seq}")
        if event["prev_hash"] != previous:
            raise Failure(f"BROKEN at {at}: prev_hash is not the previous event's hash")
        body = canonical({key: event[key] for key in HASHED})
        if hashlib.sha256(bytes.fromhex(previous) + body).hexdigest() != event["hash"]:
            raise Failure(f"BROKEN at {at}: hash does not match the event")
        if seq in wanted:
            seen[seq] = (event["hash"], event["recorded_at"])
        previous, expected, count = event["hash"], seq + 1, count + 1
    last = expected - 1
    if (trailer["count"], trailer["last_org_seq"], trailer["last_hash"]) != (count, last, previous):
        raise Failure(f"BROKEN at org_seq {last}: the trailer says {trailer['count']} events up to org_seq "
                      f"{trailer['last_org_seq']}, the file holds {count} up to org_seq {last}")
    span = f"org_seq {from_seq}-{last}" if count else f"nothing after org_seq {from_seq - 1}"
    report = [f"OK {count} events, org {org}, {span}, last hash {previous}"
              + (f" (partial: linked to prev_hash {header['prev_hash']})" if header["partial"] else "")]
    for name, head in signed:
        report.append(check_head(name, head, seen, from_seq, last, keys))
    return report


def check_head(name, head, seen, from_seq, last, keys):
    """A signed head against the export: its signature, then the export reaches its org_seq with its hash."""
    seq = head["org_seq"]
    described = f"signed head org_seq {seq} (key {head['key_id']}, signed at {head['signed_at']})"
    if keys is None:
        checked = "signature NOT checked (no --keys)"
    elif head["key_id"] not in keys:
        raise Failure(f"REFUSED: {name}: key_id {head['key_id']} is not among --keys")
    elif not signature_verifies(head, keys[head["key_id"]]):
        raise Failure(f"BROKEN at org_seq {seq}: {name}: the signature does not verify (the head was altered)")
    else:
        checked = "signature verified"
    if seq > last:
        raise Failure(f"BROKEN at org_seq {last + 1}: the export ends at org_seq {last}, before {described} "
                      f"(its tail was cut off)")
    if seq < from_seq - 1:
        if name == "--head":
            raise Failure(f"REFUSED: {described} precedes this export, which starts at org_seq {from_seq}: check "
                          f"it against the export that holds it")
        return f"{described}: precedes this partial export, not compared, {checked}"
    stored_hash, recorded_at = seen[seq]
    if stored_hash != head["hash"] or recorded_at not in (None, head["recorded_at"]):
        raise Failure(f"BROKEN at org_seq {seq}: the export's hash {stored_hash} is not the hash of {described}, "
                      f"{head['hash']} (the history was rewritten)")
    return f"{described}: matches, {checked}"


def jsonl_line(line, number):
    """One line of a JSONL export, parsed; it must be canonical JSON ending in a line feed."""
    if not line.endswith(b"\n"):
        raise Failure(f"REFUSED: line {number} does not end with a line feed (the end was cut off)")
    if not line.strip():
        raise Failure(f"REFUSED: line {number} is blank (an export has no blank lines)")
    value = parse(line[:-1].decode("utf-8"), f"line {number}")
    if canonical(value) + b"\n" != line:
        raise Failure(f"BROKEN at line {number}: the line is not in canonical form (it was edited)")
    return value


def jsonl_parts(path):
    """(header, rows, trailer) of a JSONL export: a first pass finds the header and trailer lines, the rows are
    read again one by one as they are verified, so memory stays flat whatever the export's size."""
    first, last, lines = None, None, 0
    with open(path, "rb") as export:
        for line in export:
            first, last, lines = first if lines else line, line, lines + 1
    if lines == 0:
        raise Failure("REFUSED: the file is empty (an export has at least a header and a trailer line)")
    header = jsonl_line(first, 1)
    check_header(header)
    trailer = jsonl_line(last, lines) if lines > 1 else None
    check_trailer(trailer)

    def rows():
        with open(path, "rb") as export:
            for number, line in enumerate(export, 1):
                if 1 < number < lines:
                    yield f"line {number}", jsonl_line(line, number)
    return header, rows(), trailer


def csv_parts(path, manifest):
    """(header, rows, trailer) of a CSV export: rows from the file, header and trailer from its manifest."""
    with open(manifest, encoding="utf-8", newline="") as file:
        lines = file.read().split("\n")
    if len(lines) != 3 or lines[2] != "":
        raise Failure("REFUSED: the manifest is not exactly a header line and a trailer line")
    header, trailer = parse(lines[0], "manifest line 1"), parse(lines[1], "manifest line 2")
    check_header(header)
    check_trailer(trailer)

    def rows():
        with open(path, encoding="utf-8", newline="") as file:
            reader = csv.reader(file)
            if tuple(next(reader, ())) != CSV_COLUMNS:
                raise Failure("REFUSED: the first row is not the CSV column row")
            for number, row in enumerate(reader, 2):
                if len(row) != len(CSV_COLUMNS):
                    raise Failure(f"BROKEN at row {number}: {len(row)} fields, not {len(CSV_COLUMNS)}")
                event = dict(zip(CSV_COLUMNS, row))
                try:
                    for key in CSV_INTEGERS:
                        event[key] = int(event[key])
                except ValueError:
                    raise Failure(f"BROKEN at row {number}: an integer column is not an integer")
                for key in ("data", "metadata"):
                    event[key] = parse(event[key], f"row {number}")
                yield f"row {number}", event
    return header, rows(), trailer


def load(path):
    with open(path, encoding="utf-8") as file:
        return json.load(file)


def main(arguments):
    parser = argparse.ArgumentParser(description="Verify a handoff audit export (docs/audit.md).")
    parser.add_argument("export")
    parser.add_argument("--manifest", help="the header and trailer of a CSV export")
    parser.add_argument("--keys", help="the audit public keys (handoff audit keys)")
    parser.add_argument("--head", action="append", default=[], help="a signed head kept outside the deployment")
    options = parser.parse_args(arguments)
    if options.head and not options.keys:
        parser.error("--head needs --keys: a head proves nothing until its signature is checked")
    try:
        keys = read_keys(load(options.keys)) if options.keys else None
        heads = [load(path) for path in options.head]
        with open(options.export, "rb") as export:
            is_csv = export.readline().startswith(b"org_id,")
    except (OSError, ValueError) as error:
        parser.error(str(error))
    except Failure as failure:
        print(failure)
        return 1
    try:
        if is_csv and not options.manifest:
            raise Failure("REFUSED: a CSV export is verified with its --manifest file (its header and trailer)")
        header, rows, trailer = (csv_parts(options.export, options.manifest) if is_csv
                                 else jsonl_parts(options.export))
        report = verify(header, rows, trailer, heads, keys)
    except Failure as failure:
        print(failure)
        return 1
    print("\n".join(report))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
