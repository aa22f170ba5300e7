#!/usr/bin/env python3
"""Check a failure's report folder as a person would get it: report.json, summary.txt,
trace.json (valid by the Trace Event Format's rules, tests/tools/trace_check.py, with a lane for
every involved thread), linkage.dot and linkage.svg (Graphviz), and report.html rendered by
a real browser: headless Chromium loads it, its DOM must hold the detector's name and a lane
for every involved thread, and its screenshot must not be blank. The timeline must read well,
judged on the DOM as laid out (page_facts.js measures it inside the page): a time axis with
at least 2 tick labels, a legend naming each colour drawn, a lane per involved thread and at
most one for the other threads with their right count, the window's marker inside the axis,
no decision with a fraction, and no box whose text overflows it (the commands, the captions).
Usage: tests/tools/page_check.py REPORT_DIR [DETECTOR]   (one line per problem; exit 1 if any)"""
import html
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trace_check  # noqa: E402


def png_pixels(path):
    """(width, height, rows of RGB(A) bytes) of an 8-bit RGB or RGBA PNG, unfiltered."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            if depth != 8 or color not in (2, 6):
                raise ValueError(f"PNG of depth {depth}, colour type {color}")
            bpp = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows, bpp


def blank(path):
    """Why the screenshot looks blank, or None: mostly one colour, or hardly any ink."""
    w, h, rows, bpp = png_pixels(path)
    colours, ink = set(), 0
    for y in range(0, h, 4):
        row = rows[y]
        for x in range(0, w, 4):
            px = row[x * bpp:x * bpp + 3]
            colours.add(px)
            ink += sum(px) < 600
    sampled = ((h + 3) // 4) * ((w + 3) // 4)
    if len(colours) < 8:
        return f"{len(colours)} colours"
    if ink < sampled // 200:
        return f"ink on {ink} of {sampled} sampled pixels"
    return None


FRACTION = re.compile(r"\b\d+\.\d+ *decisions?\b|\bdecisions? +\d+\.\d+|\bstep +\d+\.\d+")


def facts_of(dom):
    """What page_facts.js measured in the page, or None if it wrote nothing."""
    m = re.search(r'<pre id="page-check-facts">(.*?)</pre>', dom, re.S)
    return json.loads(html.unescape(m.group(1))) if m else None


def timeline_problems(facts, involved, others, controlled):
    """Why the timeline does not read well: one line each."""
    bad = []
    axis = facts.get("axis")
    if not axis or len(axis["labels"]) < 2:
        bad.append(f"the timeline has no time axis with 2 tick labels or more "
                   f"({len(axis['labels']) if axis else 'no axis'})")
    if not facts["marks"]:
        bad.append("the timeline draws no mark of class mark: nothing to match with a legend")
    legend = {k["colour"] for k in facts["legend"] if k["colour"] and k["words"]}
    for colour, what in sorted(facts["marks"].items()):
        if colour not in legend:
            bad.append(f"the legend does not name the colour {colour} ({what})")
    lanes = facts["lanes"]
    folded = [l for l in lanes if l["other"] is not None]
    want = len(involved) + (1 if others else 0)
    if len(lanes) != want:
        bad.append(f"{len(lanes)} lanes, not {want}: {len(involved)} involved thread(s)"
                   f"{' and one for the ' + str(others) + ' other(s)' if others else ''}")
    if others and (len(folded) != 1 or folded[0]["other"] != str(others) or
                   f"({others})" not in folded[0]["name"]):
        bad.append(f"no single lane says other threads ({others}): "
                   f"{[(l['other'], l['name']) for l in folded]}")
    if not others and folded:
        bad.append("a lane for other threads when there are none")
    if len(facts["windows"]) != 1:
        bad.append(f"{len(facts['windows'])} window markers, not 1")
    for w in facts["windows"]:
        if axis and (w["ts"] is None or not axis["from"] <= w["ts"] <= axis["to"]):
            bad.append(f"the window's marker at {w['ts']} is outside the axis "
                       f"{axis['from']}..{axis['to']}")
        if axis and axis["left"] is not None and w["x"] is not None and \
                not (axis["left"] - 1 <= w["x"] <= axis["right"] + 1):
            bad.append(f"the window's marker is drawn at x {w['x']:.0f}, off the axis "
                       f"{axis['left']:.0f}..{axis['right']:.0f}")
    if controlled:
        seen = sorted({m.group(0) for t in facts["texts"] for m in FRACTION.finditer(t)})
        if seen:
            bad.append(f"{len(seen)} decision(s) printed with a fraction: "
                       f"{', '.join(map(repr, seen[:3]))}{', ...' if len(seen) > 3 else ''}")
        if axis:
            bad += [f"an axis label with a fraction: {x!r}" for x in axis["labels"]
                    if not re.fullmatch(r"-?\d+", x)]
    bad += [f"text overflows its box: {o}" for o in facts["overflow"]]
    if not facts["commands"]:
        bad.append("no box of commands to run it again")
    return bad


def browser(args, tmp):
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        return None, "no chromium on PATH (scripts/deps.sh installs it)"
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--no-first-run", "--disable-extensions", f"--user-data-dir={tmp}/profile",
           "--window-size=1400,1800"] + args
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=90)
    except subprocess.TimeoutExpired:
        return None, "chromium did not finish in 90 s"
    return r, None


def main():
    d = sys.argv[1]
    problems = []
    files = ["report.json", "summary.txt", "trace.json", "linkage.dot", "report.html"]
    if shutil.which("dot"):
        files.append("linkage.svg")
    for f in files:
        if not os.path.isfile(os.path.join(d, f)):
            problems.append(f"{f} is missing")
    if problems:
        for p in problems:
            print(f"page_check: {d}: {p}")
        return 1
    report = json.load(open(os.path.join(d, "report.json")))
    detector = sys.argv[2] if len(sys.argv) > 2 else report["failures"][0]["detector"]
    involved = report.get("timeline", {}).get("involved", [])
    if not involved:
        problems.append("report.json names no involved thread")
    bad, counts = trace_check.check(json.load(open(os.path.join(d, "trace.json"))), involved)
    problems += [f"trace.json: {b}" for b in bad[:5]]
    with tempfile.TemporaryDirectory() as tmp:
        url = "file://" + os.path.abspath(os.path.join(d, "report.html"))
        # the facts are measured in a copy of the page with page_facts.js run at its end
        page = open(os.path.join(d, "report.html"), encoding="utf-8").read()
        js = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "page_facts.js")).read()
        at = page.rfind("</body>")
        at = at if at >= 0 else len(page)
        with open(os.path.join(tmp, "measured.html"), "w", encoding="utf-8") as f:
            f.write(page[:at] + "<script>" + js + "</script>" + page[at:])
        r, why = browser(["--dump-dom", "file://" + os.path.join(tmp, "measured.html")], tmp)
        if why:
            problems.append(why)
        else:
            dom = r.stdout
            facts = facts_of(dom)
            trace = json.load(open(os.path.join(d, "trace.json")))
            others = sum(1 for e in trace["traceEvents"] if e.get("ph") == "M" and
                         e.get("name") == "process_name" and e.get("pid") and
                         e["pid"] not in involved)
            controlled = trace.get("otherData", {}).get("time_unit") == "decisions"
            if facts is None:
                problems.append("the page could not be measured (page_facts.js wrote nothing)")
            else:
                problems += timeline_problems(facts, involved, others, controlled)
            if f"data-detector='{detector}'" not in dom and f'data-detector="{detector}"' not in dom:
                problems.append(f"the page's DOM does not name the detector {detector}")
            for t in involved:
                if f'data-thread="{t}"' not in dom and f"data-thread='{t}'" not in dom:
                    problems.append(f"no lane in the page's DOM for involved thread {t}")
            if "<svg" not in dom.split('id="linkage"')[-1][:2000] and shutil.which("dot"):
                problems.append("the linkage picture is not in the page")
            shot = os.path.join(tmp, "shot.png")
            r, why = browser([f"--screenshot={shot}", url], tmp)
            if why or not os.path.isfile(shot):
                problems.append(why or "chromium made no screenshot")
            else:
                why = blank(shot)
                if why:
                    problems.append(f"the screenshot looks blank: {why}")
                if os.environ.get("CGT_KEEP_SHOT"):
                    shutil.copy(shot, os.environ["CGT_KEEP_SHOT"])
    for p in problems:
        print(f"page_check: {d}: {p}")
    if not problems:
        print(f"page_check: ok: {detector}, {len(involved)} involved thread(s) with lanes, "
              f"trace {sum(counts.values())} events, page rendered, timeline reads well")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
