#!/usr/bin/env python3
"""Check a failure's report folder as a person would get it: report.json, summary.txt,
trace.json (valid by the Trace Event Format's rules, tests/tools/trace_check.py, with a lane for
every involved thread), linkage.dot and linkage.svg (Graphviz), and report.html rendered by
a real browser: headless Chromium loads it, its DOM must hold the detector's name and a lane
for every involved thread, and its screenshot must not be blank.
Usage: tests/tools/page_check.py REPORT_DIR [DETECTOR]   (one line per problem; exit 1 if any)"""
import json
import os
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
        r, why = browser(["--dump-dom", url], tmp)
        if why:
            problems.append(why)
        else:
            dom = r.stdout
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
              f"trace {sum(counts.values())} events, page rendered")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
