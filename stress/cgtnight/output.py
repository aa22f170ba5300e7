"""The night's files: results.json (everything), summary.txt (for a person), junit.xml (for
CI) and testid.txt (what was tested). Each is written through a temporary file and a rename,
after every cell, so a night that is killed outright still leaves what it had."""
import hashlib
import json
import os
import re
import socket
import subprocess
import time
import xml.etree.ElementTree as ET

from . import fmt_seconds
from .cell import NOT_RUN, log_tail

SCHEMA = "cgtorture-nightly"


def write_atomic(path, text):
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def counts(results):
    """passed, failed (FAIL, MISSED, HANG, ERROR), not run (NOTRUN, or INTERRUPTED: the
    night was stopped during the cell and nothing decided it)."""
    cells = results["cells"]
    passed = sum(c["status"] == "PASS" for c in cells)
    not_run = sum(c["status"] in NOT_RUN for c in cells)
    return passed, len(cells) - passed - not_run, not_run


def coverage_sum(results):
    """The coverage of every cell that reported one, summed: {"cells", "paths", "points",
    "unreached_paths", "unpassed_points"}, or None if no cell did."""
    covs = [c["coverage"] for c in results["cells"] if c.get("coverage")]
    if not covs:
        return None
    total = {"cells": len(covs), "paths": {}, "points": {}}
    for cov in covs:
        for kind in ("paths", "points"):
            for name, n in cov[kind].items():
                total[kind][name] = total[kind].get(name, 0) + n
    total["unreached_paths"] = [p for p, n in total["paths"].items() if not n]
    total["unpassed_points"] = [p for p, n in total["points"].items() if not n]
    return total


def coverage_lines(cov):
    """For a person: how many paths the night reached, and which none of its cells did."""
    if not cov:
        return ["coverage: no cell reported any"]
    paths, points = cov["paths"], cov["points"]
    out = [f"coverage over {cov['cells']} cells: {len(paths) - len(cov['unreached_paths'])} of "
           f"{len(paths)} paths reached, {len(points) - len(cov['unpassed_points'])} of "
           f"{len(points)} marked points passed"]
    out.append("  paths no cell reached: " + (", ".join(cov["unreached_paths"]) or "none"))
    if cov["unpassed_points"]:
        out.append("  marked points no cell passed: " + ", ".join(cov["unpassed_points"]))
    return out


def summary_line(results):
    passed, failed, not_run = counts(results)
    return f"Summary: {passed} passed, {failed} failed" + (f", {not_run} not run" if not_run else "")


def expectation(c):
    return "pass" if c["expect"] == "pass" else f"fail:{c['detector']}"


def summary_text(results):
    """The table of cells, the failures with their reports, and the Summary line last."""
    seeds = results["seeds"]
    head = [f"cgtorture nightly {results['night']}   {results['testid'].get('describe', '')}",
            f"shard {results['shard']}   budget {fmt_seconds(results['budget_s'])}   "
            f"wall {fmt_seconds(results.get('wall_s') or 0)}   {len(results['cells'])} cells",
            f"seeds: night {seeds['night']}"
            + (f" (base {seeds['base']} + date {seeds['date']})" if seeds.get("date") else "")
            + f"; each cell's below; the same night again: stress/nightly --seed {seeds['night']}"]
    for note in results.get("notes", []):
        head.append(f"note: {note}")
    if results.get("interrupted"):
        head.append(f"interrupted by {results['interrupted']}: the cells after it did not run")
    rows = [("status", "cell", "expect", "seed", "planned", "ran", "outcome")]
    for c in results["cells"]:
        ran = "-" if c["status"] == "NOTRUN" else fmt_seconds(c.get("elapsed_s") or 0)
        story = c.get("story") or ""
        if len(story) > 140:
            story = story[:137] + "..."
        rows.append((c["status"], c["id"], expectation(c), str(c["seed"]),
                     fmt_seconds(c["duration_s"]), ran, story))
    widths = [max(len(r[i]) for r in rows) for i in range(6)]
    table = ["  ".join(v.ljust(w) for v, w in zip(r[:6], widths)) + "  " + r[6] for r in rows]
    out = head + [""] + [t.rstrip() for t in table]
    bad = [c for c in results["cells"] if c["status"] not in ("PASS",) + NOT_RUN]
    if bad:
        out += ["", "Failures:"]
        for c in bad:
            out.append(f"  {c['status']} {c['id']}: {c.get('story')}")
            if c.get("report"):
                out.append(f"    report: {c['report']}/summary.txt")
            if c.get("page"):
                out.append(f"    page:   {c['page']}")
            out.append(f"    log:    {c['log']}")
            if c.get("command"):
                out.append(f"    again:  {c['command']}")
        out.append(f"  all of them again, with the same seeds: stress/nightly --rerun {results.get('path', results['night'])}")
    out += [""] + coverage_lines(results.get("coverage"))
    out += ["", summary_line(results)]
    return "\n".join(out) + "\n"


_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")


def _xml_text(s):
    """Text XML 1.0 can carry: no control characters (terminal escapes and the like)."""
    return _XML_BAD.sub("", s or "")


def junit_text(results, night_dir):
    """One testcase per cell (classname cgtorture.<group>); a cell that missed its
    expectation carries a <failure> whose message is the report's one-line story."""
    passed, failed, not_run = counts(results)
    total_time = f"{sum(c.get('elapsed_s') or 0 for c in results['cells']):.3f}"
    suites = ET.Element("testsuites", name="cgtorture nightly", tests=str(len(results["cells"])),
                        failures=str(failed), errors="0", skipped=str(not_run), time=total_time)
    suite = ET.SubElement(suites, "testsuite", name=f"cgtorture.nightly.{results['night']}",
                          tests=str(len(results["cells"])), failures=str(failed), errors="0",
                          skipped=str(not_run), time=total_time,
                          timestamp=results["started"], hostname=socket.gethostname())
    props = ET.SubElement(suite, "properties")
    for k, v in (("night_seed", results["seeds"]["night"]), ("shard", results["shard"]),
                 ("budget_s", results["budget_s"]), ("commit", results["testid"].get("commit")),
                 ("dirty", {True: "yes", False: "no"}.get(results["testid"].get("dirty"), "unknown"))):
        ET.SubElement(props, "property", name=k, value=_xml_text(str(v)))
    cov = results.get("coverage")
    if cov:
        ET.SubElement(props, "property", name="coverage_paths_reached",
                      value=f"{len(cov['paths']) - len(cov['unreached_paths'])} of {len(cov['paths'])}")
        ET.SubElement(props, "property", name="coverage_paths_unreached",
                      value=" ".join(cov["unreached_paths"]))
    for c in results["cells"]:
        tc = ET.SubElement(suite, "testcase", classname=f"cgtorture.{c['group']}", name=c["id"],
                           time=f"{c.get('elapsed_s') or 0:.3f}")
        if c["status"] in NOT_RUN:
            ET.SubElement(tc, "skipped", message=_xml_text(c.get("story") or "not run"))
            continue
        detail = [f"expect {expectation(c)}, seed {c['seed']}, duration {c['duration_s']} s, "
                  f"build {c['build']}", f"command: {c.get('command')}"]
        if c.get("report"):
            detail.append(f"report: {c['report']}/summary.txt")
        if c.get("page"):
            detail.append(f"page: {c['page']}")
        if c["status"] != "PASS":
            f = ET.SubElement(tc, "failure", message=_xml_text(f"{c['status']}: {c.get('story')}"),
                              type=c["status"])
            f.text = _xml_text("\n".join(detail + ["", c.get("story") or ""]))
        out = ET.SubElement(tc, "system-out")
        out.text = _xml_text("\n".join(detail + ["", log_tail(night_dir, c)]))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def write_all(results, night_dir):
    """Every file of the night, with the cells' coverage summed afresh (a merge sums its shards')."""
    results["coverage"] = coverage_sum(results)
    write_atomic(os.path.join(night_dir, "results.json"), json.dumps(results, indent=1) + "\n")
    write_atomic(os.path.join(night_dir, "junit.xml"), junit_text(results, night_dir))
    write_atomic(os.path.join(night_dir, "summary.txt"), summary_text(results))


def testid(root, binaries):
    """The project's commit, whether the tree was dirty, and which binaries ran."""
    def git(*args):
        try:
            p = subprocess.run(["git", "-C", root, *args], capture_output=True, text=True, timeout=30)
            return p.stdout.rstrip("\n") if p.returncode == 0 else None
        except (OSError, subprocess.TimeoutExpired):
            return None

    commit = git("rev-parse", "HEAD")
    changed = git("status", "--porcelain")
    tid = {"commit": commit or "unknown (not a git checkout)",
           "dirty": None if changed is None else bool(changed),
           "changed": changed.splitlines() if changed else [],
           "binaries": {}}
    for build, path in binaries.items():
        try:
            st = os.stat(path)
            with open(path, "rb") as f:
                digest = hashlib.sha256(f.read()).hexdigest()
            tid["binaries"][build] = {"path": path, "sha256": digest,
                                      "built": _iso(st.st_mtime)}
        except OSError:
            pass
    dirty = {True: "dirty", False: "clean", None: "dirty: unknown"}[tid["dirty"]]
    tid["describe"] = (f"commit {commit[:12]} ({dirty})" if commit else
                       "commit unknown: not a git checkout")
    return tid


def _iso(t):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(t))


def testid_text(tid, extra):
    lines = [f"commit: {tid['commit']}",
             f"dirty: {'unknown' if tid['dirty'] is None else ('yes' if tid['dirty'] else 'no')}"]
    lines += [f"  {l}" for l in tid["changed"][:50]]
    if len(tid["changed"]) > 50:
        lines.append(f"  ... and {len(tid['changed']) - 50} more")
    for k, v in extra:
        lines.append(f"{k}: {v}")
    for build, b in sorted(tid["binaries"].items()):
        lines.append(f"binary {build}: {b['path']} sha256 {b['sha256']} built {b['built']}")
    return "\n".join(lines) + "\n"
