"""bench/ingest: writes the request bodies of a run before any timing.

make_bodies.py KIND KEY COUNT OUT: KIND `batch` writes COUNT gzip AppBatch v1 bodies in the shape of the protocol's
example (the batch of Tests/APITests/Ingest/IngestBatchTests.swift: one screen view, a tap stream of events, identity
hashes, each body its own `inst` and `sid`), padded with events to about 3 KB once gzipped; KIND `packet` writes COUNT
recording packets ("X3R1", header, gzip NDJSON of rrweb events), each its own session. OUT gets the bodies back to
back, OUT.len one byte length per line. Prints "bytes <mean bytes per body>". Also writes, for `batch`, OUT.rows/*.csv:
the rows one batch stores (sessions, events, screen views), which pgbench COPYs in the same run.
"""
import gzip, json, os, random, struct, sys, time

kind, key, count, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
now = int(time.time() * 1000)
rng = random.Random(7)
hexes = lambda n: "".join(rng.choice("0123456789abcdef") for _ in range(n))
screens = ["Home", "Library", "Reader", "Settings", "Store", "Search"]


def batch(i):
    sid = f"S-{i:08d}"
    events = [{"s": sid, "n": 1, "t": now - 60000, "e": "app_open", "p": {"cold": True}}]
    for n in range(2, 150):
        events.append({"s": sid, "n": n, "t": now - 60000 + n * 900, "e": rng.choice(["tap", "scroll", "view_item"]),
                       "p": {"screen": rng.choice(screens), "item": f"book-{rng.randint(1, 5000)}",
                             "x": rng.randint(0, 390), "y": rng.randint(0, 844)}})
    return {"v": 1, "k": key, "app": {"plat": "ios", "bid": "com.example.Reader", "av": "3.1.0", "ab": "310",
                                       "osv": "17.5.1", "dc": "phone", "sw": 390, "sh": 844, "loc": "en_US",
                                       "tz": "Europe/Berlin", "lib": "X3Kit", "att": "authorized"},
            "inst": f"I-{i:08d}", "sid": sid, "n": 7, "at": now, "cm": "opt_in", "cs": "gggg", "dp": hexes(64),
            "scr": [{"id": "v-1", "seq": 2, "t0": now - 60000, "t1": now, "nav": "push", "path": "Home", "eng": 1800,
                     "taps": 3, "itaps": 1}],
            "ev": events, "id": {"s": sid, "xid": hexes(64)}}


def packet(i):
    header = json.dumps({"v": 1, "k": key, "plat": "ios", "bid": "com.example.Reader", "ins": f"I-{i:08d}",
                         "sid": f"R-{i:08d}", "seq": 0, "sec": "bench-secret-0123456789", "at": now,
                         "scr": "Reader", "cm": "opt_in", "cs": "gg"}).encode()
    lines = [json.dumps({"type": 4, "timestamp": now - 5000, "data": {"href": "app://Reader", "width": 390,
                                                                         "height": 844}})]
    lines.append(json.dumps({"type": 2, "timestamp": now - 4990, "data": {"node": {"type": 0, "childNodes": [
        {"type": 2, "tagName": "view", "attributes": {"id": f"n{j}", "frame": f"0,{j * 20},390,20"},
         "childNodes": []} for j in range(40)]}, "initialOffset": {"top": 0, "left": 0}}}))
    for j in range(200):
        lines.append(json.dumps({"type": 3, "timestamp": now - 4900 + j * 80,
                                 "data": {"source": 1, "positions": [{"x": rng.randint(0, 390),
                                                                      "y": rng.randint(0, 844), "id": 1,
                                                                      "timeOffset": 0}]}}))
    events = gzip.compress(("\n".join(lines) + "\n").encode())
    return b"X3R1" + struct.pack(">I", len(header)) + header + events


# Bodies differ only in their install and session ids: one body is built, then the ids are replaced in its text
# (the events and packets repeat, the rows they store do not), and gzip runs at level 6 — a few seconds per 10 000
# bodies instead of a minute.
TEMPLATE_INDEX = 99999999
template = json.dumps(batch(TEMPLATE_INDEX), separators=(",", ":")) if kind == "batch" else packet(TEMPLATE_INDEX)
marker = f"{TEMPLATE_INDEX:08d}"
total = 0
with open(out, "wb") as bodies, open(out + ".len", "w") as lengths:
    for i in range(count):
        if kind == "batch":
            body = gzip.compress(template.replace(marker, f"{i:08d}").encode(), compresslevel=6)
        else:
            body = template.replace(marker.encode(), f"{i:08d}".encode())
        bodies.write(body)
        lengths.write(f"{len(body)}\n")
        total += len(body)
print(f"bytes {total // max(count, 1)}")

if kind == "batch":
    # The rows of one batch as the server stores them (a fixed org/app; ids vary per COPY through no constraint).
    os.makedirs(out + ".rows", exist_ok=True)
    one = batch(0)
    ts = lambda ms: time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(ms / 1000)) + f".{ms % 1000:03d}+00"
    day = time.strftime("%Y-%m-%d", time.gmtime(now / 1000))
    org, project, app, inst = ("00000000-0000-4000-8000-00000000000" + c for c in "1234")
    install = hexes(64)
    esc = lambda s: '"' + s.replace('"', '""') + '"'
    with open(out + ".rows/sessions.csv", "w") as f:
        f.write(f"{day},{org},{project},{app},{install},{one['sid']},{ts(now - 60000)},{ts(now)},1,X3Kit,1.4.2,"
                f"17.5.1,3.1.0,gggg,0,,\n")  # part 0, no wrapper (migration 0044)
    with open(out + ".rows/events.csv", "w") as f:
        for e in one["ev"]:
            f.write(f"{day},{org},{app},{install},{e['s']},{e['n']},{e['e']},{ts(e['t'])},"
                    f"{esc(json.dumps(e['p']))},{ts(now)}\n")
    with open(out + ".rows/screens.csv", "w") as f:
        s = one["scr"][0]
        f.write(f"{day},{org},{app},{install},{one['sid']},{s['id']},{s['seq']},{ts(s['t0'])},{ts(s['t1'])},"
                f"{s['nav']},{s['path']},{s['eng']},{s['taps']},{s['itaps']},{ts(now)}\n")
