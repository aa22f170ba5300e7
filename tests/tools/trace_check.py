#!/usr/bin/env python3
"""Check a trace.json against the Trace Event Format's published rules (the "JSON Object
Format" of Google's Trace Event Format document, which chrome://tracing, Perfetto UI and
speedscope read): the object and its traceEvents array, each event's phase and the fields
that phase requires, B/E pairs matched on each thread, X slices nested on each thread (what
Perfetto needs to import them without "misnested" errors), flows started before they
finish, metadata events of the known kinds. Prints one line per problem (at most 20) and
exits 1 if there is any, else prints a one-line account and exits 0.
Usage: tests/tools/trace_check.py TRACE.json [--involved ID,...]  (each ID must be a lane)"""
import json
import sys

PHASES = set("BEXiIbneCsStTfPONDMRcVv()")
META = {"process_name": "name", "process_labels": "labels", "process_sort_index": "sort_index",
        "thread_name": "name", "thread_sort_index": "sort_index"}


def number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def check(trace, involved):
    bad = []
    if not isinstance(trace, dict) or not isinstance(trace.get("traceEvents"), list):
        return ["not a JSON object with a traceEvents array"], {}
    if trace.get("displayTimeUnit", "ms") not in ("ms", "ns"):
        bad.append("displayTimeUnit is neither ms nor ns")
    stacks, slices, flows, lanes, counts = {}, {}, {}, set(), {}
    for n, e in enumerate(trace["traceEvents"]):
        where = f"event {n}"
        if not isinstance(e, dict):
            bad.append(f"{where}: not an object")
            continue
        ph = e.get("ph")
        counts[ph] = counts.get(ph, 0) + 1
        if not isinstance(ph, str) or ph not in PHASES:
            bad.append(f"{where}: unknown phase {ph!r}")
            continue
        if not isinstance(e.get("name"), str) and ph not in "E":
            bad.append(f"{where} ({ph}): no name")
        for key in ("pid", "tid"):
            if not isinstance(e.get(key), (int, str)) or isinstance(e.get(key), bool):
                bad.append(f"{where} ({ph}): {key} missing or not an integer or string")
        if "args" in e and not isinstance(e["args"], dict):
            bad.append(f"{where}: args is not an object")
        track = (e.get("pid"), e.get("tid"))
        if ph == "M":
            key = META.get(e.get("name"))
            if not key or key not in e.get("args", {}):
                bad.append(f"{where}: metadata {e.get('name')!r} without args.{key}")
            if e.get("name") == "process_name":
                lanes.add(e.get("pid"))
            continue
        if not number(e.get("ts")):
            bad.append(f"{where} ({ph}): ts missing or not a number")
            continue
        ts = e["ts"]
        if ph == "X":
            if not number(e.get("dur")) or e["dur"] < 0:
                bad.append(f"{where}: X without a dur >= 0")
                continue
            slices.setdefault(track, []).append((ts, ts + e["dur"], e["name"]))
        elif ph == "B":
            stacks.setdefault(track, []).append((ts, e["name"]))
        elif ph == "E":
            if not stacks.get(track):
                bad.append(f"{where}: E with no B open on {track}")
            else:
                b = stacks[track].pop()
                if ts < b[0]:
                    bad.append(f"{where}: E before its B ({b[1]})")
        elif ph in "iI":
            if e.get("s", "t") not in ("g", "p", "t"):
                bad.append(f"{where}: instant scope {e.get('s')!r} is not g, p or t")
        elif ph in "stf":
            if "id" not in e:
                bad.append(f"{where}: flow event without id")
                continue
            key = (e.get("cat"), e.get("name"), e["id"])
            if ph == "s":
                flows[key] = ts
            elif key not in flows:
                bad.append(f"{where}: flow {ph} of id {e['id']} before its s")
            elif ph == "f" and e.get("bp", "e") != "e":
                bad.append(f"{where}: flow end binding point {e.get('bp')!r}")
    for track, open_ in stacks.items():
        for b in open_:
            bad.append(f"B {b[1]!r} on {track} never ended")
    for track, ss in slices.items():
        ss.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for s in ss:
            # timestamps are decimal microseconds: ts + dur may miss the next ts by an ulp
            while stack and stack[-1][1] <= s[0] + 1e-6:
                stack.pop()
            if stack and s[1] > stack[-1][1] + 1e-6:
                bad.append(f"X {s[2]!r} on {track} crosses the end of {stack[-1][2]!r}")
            stack.append(s)
    for want in involved:
        if want not in lanes:
            bad.append(f"no lane (process_name) for involved thread {want}")
    return bad, counts


def main():
    args = sys.argv[1:]
    involved = []
    if "--involved" in args:
        i = args.index("--involved")
        involved = [int(x) for x in args[i + 1].split(",") if x]
        del args[i:i + 2]
    try:
        with open(args[0]) as f:
            trace = json.load(f)
    except (OSError, ValueError, IndexError) as err:
        print(f"trace_check: cannot read a trace: {err}")
        return 1
    bad, counts = check(trace, involved)
    for line in bad[:20]:
        print(f"trace_check: {args[0]}: {line}")
    if bad:
        return 1
    print("trace_check: ok: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
