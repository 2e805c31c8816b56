#!/usr/bin/env python3
"""Tests of audit_verify.py against real exports, each tampered with as an attacker with write access to the
database or the file would (docs/audit.md, "What the verifier catches").

usage: python3 audit_verify_test.py FOLDER
FOLDER holds what `handoff audit` wrote for one org (AuditTests/VerifierScriptTests.swift makes it): export.jsonl
(a full export running past its latest signed head), partial.jsonl (--from-seq), empty.jsonl (--from-seq past the
end), export.csv and export.manifest, head.json (an early signed head, kept outside the deployment),
latest_head.json (the latest), other_head.json (another org's), keys.json (`handoff audit keys`).
Standard library only; `openssl` checks the signatures. Exits 0 when every test passes.
"""
import contextlib
import hashlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import audit_verify  # noqa: E402

FOLDER = None


def path(name):
    return os.path.join(FOLDER, name)


def read_lines(name):
    with open(path(name), "rb") as file:
        return file.read().decode("utf-8").split("\n")[:-1]


def load(name):
    with open(path(name), encoding="utf-8") as file:
        return json.load(file)


def write(text, suffix=".jsonl"):
    """A new file in FOLDER holding `text` exactly; returns its path."""
    handle, name = tempfile.mkstemp(suffix=suffix, dir=FOLDER)
    with os.fdopen(handle, "w", encoding="utf-8", newline="") as file:
        file.write(text)
    return name


def line(value):
    return audit_verify.canonical(value).decode("utf-8")


def recompute(events, start):
    """Rewrites every hash from events[start] on, as an attacker who edited events[start] would."""
    for index in range(start, len(events)):
        event = events[index]
        if index > 0:
            event["prev_hash"] = events[index - 1]["hash"]
        body = audit_verify.canonical({key: event[key] for key in audit_verify.HASHED})
        event["hash"] = hashlib.sha256(bytes.fromhex(event["prev_hash"]) + body).hexdigest()


def forged_trailer(events, head=None):
    last = events[-1]
    return {"count": len(events), "head": head, "kind": "trailer", "last_hash": last["hash"],
            "last_org_seq": last["org_seq"]}


class VerifierTests(unittest.TestCase):
    def run_verifier(self, export, *arguments):
        """Runs the verifier on `export` (lines to write first, or a file name in FOLDER): (exit status, output)."""
        if not isinstance(export, str):
            export = write("".join(text + "\n" for text in export))
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            status = audit_verify.main([path(export)] + list(arguments))
        return status, output.getvalue()

    def keyed(self, *heads):
        return ["--keys", path("keys.json")] + [argument for head in heads for argument in ("--head", path(head))]

    def events(self):
        lines = read_lines("export.jsonl")
        return json.loads(lines[0]), [json.loads(text) for text in lines[1:-1]], json.loads(lines[-1])

    def assertBroken(self, result, text):
        status, output = result
        self.assertEqual(status, 1, output)
        self.assertTrue(output.startswith("BROKEN"), output)
        self.assertIn(text, output)

    def assertRefused(self, result, text):
        status, output = result
        self.assertEqual(status, 1, output)
        self.assertTrue(output.startswith("REFUSED"), output)
        self.assertIn(text, output)

    # Intact exports.

    def test_an_intact_export_verifies_with_its_trailer_head_and_a_kept_head(self):
        status, output = self.run_verifier("export.jsonl", *self.keyed("head.json", "latest_head.json"))
        self.assertEqual(status, 0, output)
        header, events, trailer = self.events()
        self.assertTrue(output.startswith(f"OK {len(events)} events, org {header['org_id']}, org_seq 1-"
                                          f"{events[-1]['org_seq']}, last hash {events[-1]['hash']}\n"), output)
        self.assertEqual(output.count("matches, signature verified"), 3, output)
        self.assertLess(trailer["head"]["org_seq"], events[-1]["org_seq"])

    def test_without_keys_the_trailer_head_is_compared_but_its_signature_is_not_checked(self):
        status, output = self.run_verifier("export.jsonl")
        self.assertEqual(status, 0, output)
        self.assertIn("matches, signature NOT checked (no --keys)", output)

    def test_a_partial_export_verifies_and_says_it_is_partial(self):
        status, output = self.run_verifier("partial.jsonl", *self.keyed("latest_head.json"))
        self.assertEqual(status, 0, output)
        header = json.loads(read_lines("partial.jsonl")[0])
        self.assertTrue(header["partial"] and header["from_seq"] > 1)
        self.assertIn(f"org_seq {header['from_seq']}-", output)
        self.assertIn(f"(partial: linked to prev_hash {header['prev_hash']})", output)

    def test_a_kept_head_before_a_partial_export_cannot_be_checked_against_it(self):
        self.assertRefused(self.run_verifier("partial.jsonl", *self.keyed("head.json")), "precedes this export")

    def test_an_empty_export_verifies(self):
        status, output = self.run_verifier("empty.jsonl")
        self.assertEqual(status, 0, output)
        self.assertIn("OK 0 events", output)

    def test_a_csv_export_verifies_with_its_manifest_and_not_without(self):
        status, output = self.run_verifier("export.csv", "--manifest", path("export.manifest"),
                                           *self.keyed("latest_head.json"))
        self.assertEqual(status, 0, output)
        _, events, _ = self.events()
        self.assertTrue(output.startswith(f"OK {len(events)} events"), output)
        self.assertRefused(self.run_verifier("export.csv"), "--manifest")

    # The two cases no export could show before signed heads.

    def test_a_cut_off_tail_without_its_trailer_is_refused(self):
        lines = read_lines("export.jsonl")
        self.assertRefused(self.run_verifier(lines[:-4]), "the last line is not a trailer line")

    def test_a_cut_off_tail_with_a_forged_trailer_fails_against_the_kept_head(self):
        header, events, _ = self.events()
        latest = load("latest_head.json")
        kept = [event for event in events if event["org_seq"] < latest["org_seq"]]
        lines = [line(header)] + [line(event) for event in kept] + [line(forged_trailer(kept))]
        self.assertEqual(self.run_verifier(lines)[0], 0, "the file alone cannot show a cut-off tail")
        self.assertBroken(self.run_verifier(lines, *self.keyed("latest_head.json")),
                          f"BROKEN at org_seq {latest['org_seq']}: the export ends at org_seq "
                          f"{latest['org_seq'] - 1}, before signed head org_seq {latest['org_seq']}")

    def test_a_chain_recomputed_from_an_edit_onward_fails_against_the_kept_head(self):
        header, events, _ = self.events()
        kept = load("head.json")
        events[2]["data"] = {"amount": 1, "rewritten": True}
        recompute(events, 2)
        lines = [line(header)] + [line(event) for event in events] + [line(forged_trailer(events))]
        self.assertEqual(self.run_verifier(lines)[0], 0, "a recomputed chain is valid on its own")
        self.assertBroken(self.run_verifier(lines, *self.keyed("head.json")),
                          f"BROKEN at org_seq {kept['org_seq']}: the export's hash")
        self.assertIn("the history was rewritten", self.run_verifier(lines, *self.keyed("head.json"))[1])

    def test_a_recomputed_chain_that_keeps_the_trailer_head_is_caught_by_it(self):
        header, events, trailer = self.events()
        events[2]["data"] = {"amount": 1}
        recompute(events, 2)
        lines = [line(header)] + [line(event) for event in events] + [line(forged_trailer(events, trailer["head"]))]
        self.assertBroken(self.run_verifier(lines, "--keys", path("keys.json")),
                          f"BROKEN at org_seq {trailer['head']['org_seq']}")

    # Edits, deletions, swaps, forged hashes.

    def test_an_edited_event_is_named_by_its_org_seq(self):
        header, events, trailer = self.events()
        events[3]["data"] = {"edited": True}
        lines = [line(header)] + [line(event) for event in events] + [line(trailer)]
        self.assertBroken(self.run_verifier(lines), f"org_seq {events[3]['org_seq']} (line 5): hash does not match")

    def test_an_edit_that_leaves_the_line_out_of_canonical_form_is_named_by_its_line(self):
        lines = read_lines("export.jsonl")
        lines[4] = lines[4].replace('{"', '{ "', 1)
        self.assertBroken(self.run_verifier(lines), "BROKEN at line 5: the line is not in canonical form")

    def test_a_member_given_twice_is_refused(self):
        lines = read_lines("export.jsonl")
        lines[4] = lines[4][:-1] + ',"tx_id":1}'
        self.assertBroken(self.run_verifier(lines), "line 5: not valid export JSON")

    def test_a_deleted_event_is_a_gap_at_its_org_seq(self):
        lines = read_lines("export.jsonl")
        seq = json.loads(lines[6])["org_seq"]
        del lines[6]
        self.assertBroken(self.run_verifier(lines), f"BROKEN at org_seq {seq} (line 7): found org_seq {seq + 1}")

    def test_swapped_events_are_named(self):
        lines = read_lines("export.jsonl")
        seq = json.loads(lines[4])["org_seq"]
        lines[4], lines[5] = lines[5], lines[4]
        self.assertBroken(self.run_verifier(lines), f"BROKEN at org_seq {seq} (line 5): found org_seq {seq + 1}")

    def test_a_forged_hash_is_named_and_so_is_the_next_link(self):
        header, events, trailer = self.events()
        forged = [dict(event) for event in events]
        forged[4]["hash"] = "ab" * 32
        lines = [line(header)] + [line(event) for event in forged] + [line(trailer)]
        self.assertBroken(self.run_verifier(lines), f"org_seq {events[4]['org_seq']} (line 6): hash does not match")
        # An edit whose own hash was recomputed breaks the next event's link instead.
        events[4]["data"] = {"edited": True}
        recompute(events, 4)
        events[5:] = [json.loads(text) for text in read_lines("export.jsonl")[6:-1]]
        lines = [line(header)] + [line(event) for event in events] + [line(trailer)]
        self.assertBroken(self.run_verifier(lines),
                          f"org_seq {events[5]['org_seq']} (line 7): prev_hash is not the previous event's hash")

    def test_an_edited_csv_row_is_named(self):
        with open(path("export.csv"), encoding="utf-8", newline="") as file:
            rows = file.read().split("\r\n")
        number = next(index for index, row in enumerate(rows) if ",PaymentRecorded," in row)
        rows[number] = rows[number].replace(",PaymentRecorded,", ",PaymentRefunded,")
        self.assertBroken(self.run_verifier(write("\r\n".join(rows), suffix=".csv"), "--manifest",
                                            path("export.manifest")),
                          f"(row {number + 1}): hash does not match")

    # Refusals of incomplete or undeclared files.

    def test_a_missing_trailer_is_refused(self):
        self.assertRefused(self.run_verifier(read_lines("export.jsonl")[:-1]), "not a trailer line")

    def test_a_file_without_its_header_is_refused(self):
        self.assertRefused(self.run_verifier(read_lines("export.jsonl")[1:]), "the first line is not a header line")

    def test_a_full_export_with_its_first_events_deleted_is_not_a_partial_one(self):
        lines = read_lines("export.jsonl")
        self.assertBroken(self.run_verifier(lines[:1] + lines[4:]),
                          "BROKEN at org_seq 1 (line 2): the first event is org_seq 4, but the header declares "
                          "from_seq 1 (lines were removed at the start)")

    def test_a_header_that_claims_a_partial_start_from_org_seq_one_is_refused(self):
        lines = read_lines("export.jsonl")
        header = json.loads(lines[0])
        header["partial"] = True
        self.assertRefused(self.run_verifier([line(header)] + lines[1:]), "neither org_seq 1")

    def test_a_rewritten_header_alone_is_caught_by_the_trailers_count(self):
        lines = read_lines("export.jsonl")
        first = json.loads(lines[4])
        header = dict(json.loads(lines[0]), from_seq=first["org_seq"], partial=True, prev_hash=first["prev_hash"])
        self.assertBroken(self.run_verifier([line(header)] + lines[4:]), "the trailer says")

    def test_a_rewritten_header_and_trailer_declare_the_cut_and_the_export_reads_as_partial(self):
        header, events, trailer = self.events()
        kept = events[3:]
        header = dict(header, from_seq=kept[0]["org_seq"], partial=True, prev_hash=kept[0]["prev_hash"])
        lines = [line(header)] + [line(event) for event in kept] + [line(dict(trailer, count=len(kept)))]
        status, output = self.run_verifier(lines)
        self.assertEqual(status, 0, output)
        self.assertIn(f"org_seq {kept[0]['org_seq']}-", output)
        self.assertIn("(partial: linked to prev_hash", output)

    def test_a_blank_line_is_refused(self):
        lines = read_lines("export.jsonl")
        self.assertRefused(self.run_verifier(lines[:3] + [""] + lines[3:]), "line 4 is blank")

    def test_a_file_whose_last_line_feed_is_missing_is_refused(self):
        export = write("\n".join(read_lines("export.jsonl")))
        self.assertRefused(self.run_verifier(export), "does not end with a line feed")

    # Signed heads.

    def test_a_head_whose_members_were_changed_does_not_verify(self):
        head = load("latest_head.json")
        head["org_seq"] -= 1
        forged = write(json.dumps(head), suffix=".json")
        self.assertBroken(self.run_verifier("export.jsonl", "--keys", path("keys.json"), "--head", forged),
                          "the signature does not verify")

    def test_a_trailer_head_that_was_altered_does_not_verify(self):
        lines = read_lines("export.jsonl")
        trailer = json.loads(lines[-1])
        trailer["head"]["hash"] = "cd" * 32
        self.assertBroken(self.run_verifier(lines[:-1] + [line(trailer)], "--keys", path("keys.json")),
                          "the signature does not verify")

    def test_a_head_of_another_org_or_by_an_unknown_key_is_refused(self):
        self.assertRefused(self.run_verifier("export.jsonl", *self.keyed("other_head.json")), "a head of org")
        empty_keys = write(json.dumps({"keys": []}), suffix=".json")
        self.assertRefused(self.run_verifier("export.jsonl", "--keys", empty_keys, "--head", path("head.json")),
                           "is not among --keys")

    def test_a_keys_file_whose_key_id_does_not_fit_its_key_is_refused(self):
        keys = load("keys.json")
        keys["keys"][0]["key_id"] = "0" * 16
        forged = write(json.dumps(keys), suffix=".json")
        self.assertRefused(self.run_verifier("export.jsonl", "--keys", forged), "key_id")

    def test_a_head_without_keys_is_a_usage_error(self):
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit) as exit:
            audit_verify.main([path("export.jsonl"), "--head", path("head.json")])
        self.assertEqual(exit.exception.code, 2)


if __name__ == "__main__":
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit(__doc__.strip().splitlines()[2])
    FOLDER = sys.argv[1]
    unittest.main(argv=sys.argv[:1], verbosity=2)
