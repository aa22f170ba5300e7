"""One cell: the binary as a child process in its own process group, with a hard timeout,
and the cell's status from what the child printed and wrote.

Statuses: PASS (the expectation met: a clean run, or the expected detector reported),
FAIL (a failure where none was expected, or another detector than the expected one),
MISSED (an expected failure not found), HANG (the driver had to kill it), ERROR (the binary
refused the options or died), INTERRUPTED (the night was stopped during the cell and
nothing decided it), NOTRUN (the night was stopped before it).
"""
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import time

from . import fmt_seconds

GRACE_S = 3.0            # after SIGTERM (to write a report), before SIGKILL
FAILED = ("FAIL", "MISSED", "HANG", "ERROR")
NOT_RUN = ("NOTRUN", "INTERRUPTED")


class Stopper:
    """SIGINT/SIGTERM to the driver: the running child gets the same signal (it writes its
    report), no further cell starts; a second signal kills the child at once."""

    def __init__(self):
        self.signum = 0
        self.hard = False

    def install(self):
        for s in (signal.SIGINT, signal.SIGTERM):
            signal.signal(s, self._handle)

    def _handle(self, signum, frame):
        if self.signum:
            self.hard = True
        self.signum = signum


def _killpg(pgid, sig):
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def execute(cell, binary, night_dir, env, stopper):
    """Run the cell; returns the result dict kept in results.json (paths relative to the night)."""
    rel = os.path.join("cells", cell.folder)
    cell_dir = os.path.join(night_dir, rel)
    shutil.rmtree(cell_dir, ignore_errors=True)
    os.makedirs(cell_dir)
    argv = [binary] + cell.run_args() + ["--out", cell_dir]
    log_path = os.path.join(cell_dir, "log.txt")
    started = time.time()
    t0 = time.monotonic()
    killed = None            # "timeout" or the driver's signal
    term_at = None
    with open(log_path, "wb") as log:
        try:
            p = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                                 stdin=subprocess.DEVNULL, env=env, start_new_session=True)
        except OSError as e:
            log.write(f"cannot start {binary}: {e}\n".encode())
            p = None
        rc = None
        while p is not None:
            try:
                rc = p.wait(timeout=0.05)
                break
            except subprocess.TimeoutExpired:
                pass
            now = time.monotonic()
            if term_at is None and stopper.signum:
                killed, term_at = signal.Signals(stopper.signum).name, now
                _killpg(p.pid, stopper.signum)
            elif term_at is None and now - t0 > cell.timeout_s:
                killed, term_at = "timeout", now
                _killpg(p.pid, signal.SIGTERM)
            elif term_at is not None and (now - term_at > GRACE_S or stopper.hard):
                _killpg(p.pid, signal.SIGKILL)
        if p is not None:
            _killpg(p.pid, signal.SIGKILL)     # whatever it left behind in its group
    elapsed = time.monotonic() - t0

    res = {
        "id": cell.id, "group": cell.group, "scenario": cell.source, "build": cell.build,
        "bug": cell.bug, "twin": cell.twin, "expect": cell.expect, "detector": cell.detector,
        "options": cell.options, "duration_s": cell.duration_s, "seed": cell.seed,
        "timeout_s": cell.timeout_s, "command": None, "args": cell.run_args(),
        "started": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(started)),
        "elapsed_s": round(elapsed, 3), "exit_status": rc, "killed": killed,
        "log": os.path.join(rel, "log.txt"), "report": None,
    }
    res.update(classify(cell, rc, killed, log_path, cell_dir))
    res["page"] = None
    if res["report_dir"]:
        res["report"] = os.path.join(rel, os.path.basename(res["report_dir"]))
        if os.path.isfile(os.path.join(res["report_dir"], "report.html")):
            res["page"] = os.path.join(res["report"], "report.html")
    del res["report_dir"]
    return res


def _read_log(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


def _report(cell_dir):
    """The newest report folder the run wrote, and its report.json (or None)."""
    dirs = sorted(glob.glob(os.path.join(cell_dir, "*", "report.json")), key=os.path.getmtime)
    if not dirs:
        return None, None
    try:
        with open(dirs[-1], encoding="utf-8") as f:
            return os.path.dirname(dirs[-1]), json.load(f)
    except (OSError, ValueError):
        return os.path.dirname(dirs[-1]), None


def _last_line(text):
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return lines[-1] if lines else "(no output)"


def coverage_of(log):
    """The run's COVERAGE line: {"paths": {name: count}, "points": {name: count}}, or None
    if it printed none (it was killed, or refused its options)."""
    m = re.findall(r"^COVERAGE (.*)$", log, re.M)
    if not m:
        return None
    cov = {"paths": {}, "points": {}}
    for kv in m[-1].split():
        key, _, count = kv.partition("=")
        kind, _, name = key.partition(".")
        if kind in ("path", "point") and count.isdigit():
            cov[kind + "s"][name] = int(count)
    return cov


def classify(cell, rc, killed, log_path, cell_dir):
    """status, story and what the run said of itself."""
    log = _read_log(log_path)
    report_dir, report = _report(cell_dir)
    m = re.findall(r"^SUMMARY (.*verdict=.*)$", log, re.M)      # not the sanitizers' SUMMARY:
    summary = dict(kv.split("=", 1) for kv in m[-1].split() if "=" in kv) if m else {}
    fired = set(re.findall(r"^(\S+)\s+\d+ report\(s\)", log, re.M))
    failures = (report or {}).get("failures") or []
    fired.update(f.get("detector") for f in failures if f.get("detector"))
    # a sanitizer's own words count even if the harness somehow missed them
    if re.search(r"^WARNING: ThreadSanitizer", log, re.M):
        fired.add("tsan")
    if re.search(r"^==\d+==ERROR: AddressSanitizer", log, re.M):
        fired.add("asan")
    first_s = summary.get("first_failure_s")
    first_s = float(first_s) if first_s and float(first_s) >= 0 else None

    def story_of(f):
        t = f" at {f['time_s']:.2f}s" if isinstance(f.get("time_s"), (int, float)) else ""
        return f"{f.get('detector', '?')}{t}: {f.get('summary', '')}"

    def first_story(det=None):
        # what the era shipped with (the summary's "- known: ENTRY") is not news
        for f in failures:
            if not f.get("known") and (det in (None, "any") or f.get("detector") == det):
                return story_of(f)
        for line in log.splitlines():        # no report.json: the summary's first report
            if (re.match(r"^\s+\[\s*[\d.]+s\] ", line) and " - known: " not in line
                    and (det in (None, "any") or f" {det}:" in line)):
                return line.strip()
        named = det if det not in (None, "any") else ", ".join(sorted(fired))
        return f"{named} reported (see the log)" if named else None

    out = {"verdict": summary.get("verdict"), "first_failure_s": first_s,
           "failures": int(summary.get("failures", len(failures)) or 0),
           "known": int(summary.get("known", 0) or 0),
           "fired": sorted(fired), "report_dir": report_dir, "coverage": coverage_of(log)}

    caught = bool(fired) if cell.detector == "any" else cell.detector in fired
    if killed == "timeout":
        said = first_story()
        status, story = "HANG", (f"killed after {fmt_seconds(cell.timeout_s)} (its timeout); "
                                 + (f"it had reported {said}" if said else f"last output: {_last_line(log)}"))
    elif killed:
        if cell.expect == "pass" and fired:
            status, story = "FAIL", first_story()     # fired: never None
        elif cell.expect == "fail" and caught:
            status, story = "PASS", "caught: " + first_story(cell.detector)
        else:
            status, story = "INTERRUPTED", f"the night was stopped ({killed}) during this cell"
    elif rc is None or rc == 2 or not m:
        what = "could not start" if rc is None else (f"died of signal {-rc}" if rc < 0 else f"exit status {rc}")
        status, story = "ERROR", f"{what}, no SUMMARY line: {_last_line(log)}"
    elif cell.expect == "pass":
        if rc == 0 and out["verdict"] == "PASS" and not fired:
            status, story = "PASS", ("no detector fired; invariants held" if not out["known"] else
                                     f"nothing new; {out['known']} report(s) of the era's known behaviour")
        else:
            status, story = "FAIL", (first_story() or f"exit status {rc}, verdict {out['verdict']}, "
                                     f"reports from {', '.join(sorted(fired)) or 'no detector'}")
    else:
        if caught:
            status, story = "PASS", "caught: " + first_story(cell.detector)
        elif fired:
            status, story = "FAIL", f"not {cell.detector} but " + first_story()
        else:
            status, story = "MISSED", f"no {cell.detector} report in {fmt_seconds(cell.duration_s)} (verdict {out['verdict']})"
    out["status"], out["story"] = status, story
    return out


def log_tail(night_dir, res, lines=30):
    text = _read_log(os.path.join(night_dir, res["log"])) if res.get("log") else ""
    return "\n".join(text.splitlines()[-lines:])
