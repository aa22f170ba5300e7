"""The command lines: stress/nightly (a night, a shard of one, or a re-run of what failed)
and stress/merge (shards' folders into one). Exit status: 0 every cell met its expectation,
1 some did not, 2 bad input (before anything starts), 128+signal when stopped with nothing
failed."""
import argparse
import datetime
import fnmatch
import json
import os
import shlex
import shutil
import subprocess
import sys
import time

from . import NightError, fmt_seconds, parse_seconds, plan, scenario
from .cell import FAILED, Stopper, execute
from .output import SCHEMA, counts, summary_text, testid, testid_text, write_all, write_atomic
from .scenario import BUILDS, Cell, Catalogue

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_BUDGET = "5m"


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise NightError(f"{message} (see --help)")


def shown(path):
    """A path as a user would type it from here."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def nightly_args(argv):
    p = Parser(prog="stress/nightly", description=(
        "Run cgtorture's nightly matrix (stress/scenarios/*.scn) within a time budget: every "
        "cell a child process with its own hard timeout. Writes summary.txt, junit.xml, "
        "results.json and testid.txt into results/<date>-<time>/. See stress/README.md."))
    p.add_argument("--budget", default=DEFAULT_BUDGET, metavar="TIME",
                   help=f"the whole night's time, spread over the cells (e.g. 30m, 1h) [{DEFAULT_BUDGET}]")
    p.add_argument("--base-seed", type=int, default=0, metavar="N",
                   help="the night's seed is N plus today's date as YYYYMMDD [0]")
    p.add_argument("--seed", type=int, metavar="N",
                   help="the night's seed itself (repeat a night: its summary prints it)")
    p.add_argument("--shard", metavar="K/N", help="run the K-th of N disjoint slices of the night")
    p.add_argument("--only", metavar="GLOB,...",
                   help="only the cells whose id matches one of these globs (e.g. 'bug/*,*/tsan')")
    p.add_argument("--rerun", metavar="DIR",
                   help="run again the cells that failed in that night's folder, with their seeds")
    p.add_argument("--out", metavar="DIR", help="the night's folder [results/<date>-<time>]")
    p.add_argument("--scenarios", metavar="DIR", default=os.path.join(ROOT, "stress", "scenarios"),
                   help="where the *.scn files are [stress/scenarios]")
    p.add_argument("--build-dir", metavar="DIR", default=os.path.join(ROOT, "build"),
                   help="holds plain/, tsan/ and asan/cgtorture [build]")
    p.add_argument("--kill-margin", default="10s", metavar="TIME",
                   help="how far past the binary's own deadline a cell is killed [10s]")
    p.add_argument("--keep-reports", action="store_true",
                   help="keep the reports of cells that met their expectation too (a caught bug's)")
    p.add_argument("--list", action="store_true", help="print the plan and exit")
    return p.parse_args(argv)


def select(cells, only):
    if not only:
        return cells
    globs = [g for g in only.replace(",", " ").split() if g]
    picked = [c for c in cells if any(fnmatch.fnmatchcase(c.id, g) for g in globs)]
    if not picked:
        raise NightError(f"--only {only}: no cell matches (see --list)")
    return picked


def load_results(folder, what):
    path = os.path.join(folder, "results.json")
    try:
        with open(path, encoding="utf-8") as f:
            res = json.load(f)
    except (OSError, ValueError) as e:
        raise NightError(f"{what}: cannot read {path}: {getattr(e, 'strerror', None) or e}")
    if res.get("schema") != SCHEMA:
        raise NightError(f"{what}: {path} is not a nightly results file")
    return res


def cells_from_results(entries, margin):
    cells = []
    for r in entries:
        c = Cell(id=r["id"], group=r["group"], source=r["scenario"], build=r["build"],
                 expect=r["expect"], detector=r["detector"], bug=r.get("bug"),
                 twin=r.get("twin", False), options=list(r["options"]))
        c.duration_s, c.seed = r["duration_s"], r["seed"]
        c.timeout_s = plan.timeout_s(c, margin)
        cells.append(c)
    return cells


def binary_of(build_dir, build):
    return os.path.join(build_dir, build, "cgtorture")


def check_builds(cells, build_dir):
    for build in BUILDS:
        users = [c.id for c in cells if c.build == build]
        path = binary_of(build_dir, build)
        if users and not os.access(path, os.X_OK):
            raise NightError(f"missing build: {shown(path)} (for {len(users)} cell(s), e.g. "
                             f"{users[0]}): make {build}")


def preflight(cells, build_dir, env):
    """Let each binary check each cell's options: with an --out it cannot write in, it stops
    at that check, which comes after every option was parsed, with the tool error's status
    (4); any other complaint (a bad option is 2) is the scenario's."""
    for c in cells:
        argv = [binary_of(build_dir, c.build)] + c.run_args() + ["--out", "/dev/null/cgt-preflight"]
        try:
            p = subprocess.run(argv, capture_output=True, text=True, timeout=60, env=env)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise NightError(f"cannot run {shown(argv[0])}: {e}")
        said = (p.stderr.strip() or p.stdout.strip()).splitlines()
        if p.returncode != 4 or not said or "--out:" not in said[-1]:
            raise NightError(f"{shown(c.source)}: cell {c.id}: "
                             f"{said[-1] if said else f'status {p.returncode}'}")


def make_folder(out, base, shard_tag):
    """The night's folder: --out as given (it must not hold a night already), or a new
    results/<date>-<time>[-tag] folder. NightError when it cannot be written."""
    if out:
        folder = out
        if os.path.exists(os.path.join(folder, "results.json")):
            raise NightError(f"--out {out}: it already holds a night's results.json")
    else:
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S") + shard_tag
        folder = os.path.join(base, stamp)
        n = 2
        while os.path.exists(folder):
            folder, n = os.path.join(base, f"{stamp}-{n}"), n + 1
    try:
        os.makedirs(os.path.join(folder, "cells"), exist_ok=True)
        probe = os.path.join(folder, f".probe{os.getpid()}")
        with open(probe, "w"):
            pass
        os.remove(probe)
    except OSError as e:
        raise NightError(f"cannot write in the results folder {folder}: {e.strerror}")
    return folder


def child_env():
    env = dict(os.environ)
    env.setdefault("TSAN_OPTIONS", f"suppressions={ROOT}/tsan-suppressions")
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1 abort_on_error=0")
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1 halt_on_error=1")
    return env


def planned(c):
    return {"id": c.id, "group": c.group, "scenario": c.source, "build": c.build,
            "bug": c.bug, "twin": c.twin, "expect": c.expect, "detector": c.detector,
            "options": c.options, "duration_s": c.duration_s, "seed": c.seed,
            "timeout_s": c.timeout_s, "args": c.run_args(), "status": "NOTRUN",
            "story": "not run", "log": None, "report": None, "page": None}


def print_plan(cells, budget, seeds, shard_txt):
    w = max(len(c.id) for c in cells)
    print(f"{'cell':<{w}}  build  expect            seed  duration  timeout")
    for c in cells:
        exp = "pass" if c.expect == "pass" else f"fail:{c.detector}"
        print(f"{c.id:<{w}}  {c.build:<5}  {exp:<16}  {c.seed:>10}  {c.duration_s:>7.1f}s  {c.timeout_s:>6.1f}s")
    worst = sum(plan.cost(c) for c in cells)
    print(f"{len(cells)} cells (shard {shard_txt}), night seed {seeds['night']}; planned "
          f"{fmt_seconds(worst)} at most of the budget {fmt_seconds(budget)}")


def nightly_main(argv):
    a = nightly_args(argv)
    budget = parse_seconds(a.budget, "--budget")
    if budget <= 0:
        raise NightError("--budget must be more than 0")
    margin = parse_seconds(a.kill_margin, "--kill-margin")
    k, n = plan.parse_shard(a.shard) if a.shard else (1, 1)
    shard_txt = f"{k}/{n}"
    notes = []

    if a.rerun:
        old = load_results(a.rerun, "--rerun")
        seeds = old["seeds"]
        cells = cells_from_results([c for c in old["cells"] if c["status"] in FAILED], margin)
        if not cells:
            print(f"stress/nightly: nothing to re-run: every cell of {a.rerun} met its expectation"
                  + (" (or did not run)" if counts(old)[2] else ""))
            return 0
        cells = select(cells, a.only)
        budget = sum(plan.cost(c) for c in cells)
        notes.append(f"a re-run of the failed cells of {a.rerun}, with their seeds and durations")
        tag = "-rerun"
    else:
        if a.seed is not None:
            seeds = {"night": a.seed, "base": None, "date": None}
        else:
            today = datetime.date.today()
            seeds = {"night": plan.night_seed(a.base_seed, today), "base": a.base_seed,
                     "date": today.strftime("%Y%m%d")}
        cat_bin = next((binary_of(a.build_dir, b) for b in BUILDS
                        if os.access(binary_of(a.build_dir, b), os.X_OK)), None)
        if not cat_bin:
            raise NightError(f"missing build: no cgtorture in {shown(a.build_dir)}/{{plain,tsan,asan}}: make plain tsan asan")
        cells = select(scenario.load(a.scenarios, Catalogue(cat_bin)), a.only)
        for c in cells:
            c.source = shown(c.source)
        plan.make(cells, budget, seeds["night"], margin)
        tag = ""
    matrix = [planned(c) for c in cells]
    if n > 1:
        cells = plan.shard(cells, k, n)
        tag += f"-shard{k}of{n}"
        if not cells:
            raise NightError(f"--shard {shard_txt}: the night has only {len(matrix)} cells")
    if a.list:
        print_plan(cells, budget, seeds, shard_txt)
        return 0

    env = child_env()
    check_builds(cells, a.build_dir)
    preflight(cells, a.build_dir, env)
    night_dir = make_folder(a.out, os.path.join(ROOT, "results"), tag)

    binaries = {b: shown(binary_of(a.build_dir, b)) for b in sorted({c.build for c in cells})}
    tid = testid(ROOT, binaries)
    started = datetime.datetime.now()
    write_atomic(os.path.join(night_dir, "testid.txt"), testid_text(tid, [
        ("date", started.strftime("%Y-%m-%dT%H:%M:%S")),
        ("command", shlex.join(["stress/nightly"] + list(argv))),
        ("night seed", seeds["night"]), ("shard", shard_txt), ("cells", len(cells))]))
    results = {"schema": SCHEMA, "version": 1, "night": os.path.basename(os.path.normpath(night_dir)),
               "path": shown(night_dir), "started": started.strftime("%Y-%m-%dT%H:%M:%S"),
               "finished": None, "wall_s": 0.0, "budget_s": budget, "seeds": seeds,
               "shard": shard_txt, "rerun_of": a.rerun, "interrupted": None, "notes": notes,
               "testid": tid, "matrix": matrix, "cells": [planned(c) for c in cells]}
    write_all(results, night_dir)

    worst = sum(plan.cost(c) for c in cells)
    print(f"stress/nightly: {len(cells)} cells (shard {shard_txt}) into {shown(night_dir)}; budget "
          f"{fmt_seconds(budget)}, planned {fmt_seconds(worst)} at most")
    if seeds.get("date"):
        print(f"seeds: night {seeds['night']} = base {seeds['base']} + date {seeds['date']}; "
              f"the same night again: --seed {seeds['night']}")
    else:
        print(f"seeds: night {seeds['night']}")
    sys.stdout.flush()

    stopper = Stopper()
    stopper.install()
    t0 = time.monotonic()
    width = max(len(c.id) for c in cells)
    for i, c in enumerate(cells):
        if stopper.signum:
            break
        if sys.stdout.isatty():
            print(f"[{i + 1:2}/{len(cells)}] running {c.id} ({fmt_seconds(c.duration_s)}, "
                  f"killed at {fmt_seconds(c.timeout_s)})...", end="\r", flush=True)
        binary = binary_of(a.build_dir, c.build)
        r = execute(c, binary, night_dir, env, stopper)
        r["command"] = shlex.join([shown(binary)] + r["args"])
        if r["status"] == "PASS" and r["report"] and not a.keep_reports:
            shutil.rmtree(os.path.join(night_dir, r["report"]), ignore_errors=True)
            r["report"] = r["page"] = None
        results["cells"][i] = r
        results["wall_s"] = round(time.monotonic() - t0, 1)
        write_all(results, night_dir)
        if sys.stdout.isatty():
            print("\033[K", end="")
        print(f"[{i + 1:2}/{len(cells)}] {r['status']:<6} {c.id:<{width}}  seed {c.seed:<10}  "
              f"{fmt_seconds(r['elapsed_s']):>6}  {r['story']}", flush=True)

    signal_names = {2: "SIGINT", 15: "SIGTERM"}
    if stopper.signum:
        results["interrupted"] = signal_names.get(stopper.signum, f"signal {stopper.signum}")
    results["finished"] = datetime.datetime.now().strftime("%Y-%m-%dT%H:%M:%S")
    results["wall_s"] = round(time.monotonic() - t0, 1)
    write_all(results, night_dir)
    print()
    print(summary_text(results), end="")
    print(f"(files: {shown(night_dir)}/summary.txt, junit.xml, results.json, testid.txt)")
    _, failed, not_run = counts(results)
    if stopper.signum and not failed:
        return 128 + stopper.signum
    return 0 if failed == 0 and not_run == 0 else 1


def merge_main(argv):
    p = Parser(prog="stress/merge", description=(
        "Combine the folders of a night's shards (stress/nightly --shard K/N) into one "
        "summary.txt, junit.xml and results.json, with every cell's folder."))
    p.add_argument("dirs", nargs="+", metavar="DIR", help="a shard's folder (holding results.json)")
    p.add_argument("--out", metavar="DIR", help="the merged folder [results/<date>-<time>-merged]")
    a = p.parse_args(argv)

    shards = [(d, load_results(d, "merge")) for d in a.dirs]
    first = shards[0][1]
    cells, owner = {}, {}
    notes = []
    for d, r in shards:
        if r["seeds"]["night"] != first["seeds"]["night"]:
            raise NightError(f"merge: {d} is from another night (night seed {r['seeds']['night']}, "
                             f"not {first['seeds']['night']})")
        for c in r["cells"]:
            if c["id"] in owner:
                raise NightError(f"merge: cell {c['id']} is in both {owner[c['id']]} and {d} "
                                 "(the same shard twice?)")
            owner[c["id"]] = d
            cells[c["id"]] = c
    order = [m["id"] for m in first["matrix"]]
    missing = [m for m in first["matrix"] if m["id"] not in cells]
    if missing:
        notes.append(f"{len(missing)} cell(s) of the night are in none of these folders "
                     "(a shard missing?): listed as not run")
    for m in missing:
        cells[m["id"]] = dict(m, status="NOTRUN", story="not run: in no merged shard")
    ordered = [cells[i] for i in order if i in cells] + [c for i, c in cells.items() if i not in order]
    commits = sorted({r["testid"].get("commit") for _, r in shards})
    if len(commits) > 1:
        notes.append(f"the shards ran different commits: {', '.join(c[:12] for c in commits)}")
    interrupted = [f"{d}: {r['interrupted']}" for d, r in shards if r.get("interrupted")]
    if interrupted:
        notes.append("interrupted shards: " + "; ".join(interrupted))

    out = make_folder(a.out, os.path.join(ROOT, "results"), "-merged")
    for d, _ in shards:
        if os.path.isdir(os.path.join(d, "cells")):
            shutil.copytree(os.path.join(d, "cells"), os.path.join(out, "cells"), dirs_exist_ok=True)
    merged = dict(first, night=os.path.basename(os.path.normpath(out)), path=shown(out),
                  started=min(r["started"] for _, r in shards),
                  finished=max((r.get("finished") or "") for _, r in shards) or None,
                  wall_s=max(r.get("wall_s") or 0 for _, r in shards),
                  shard="merged " + ", ".join(r["shard"] for _, r in shards),
                  merged_from=[shown(d) for d, _ in shards], interrupted=None,
                  notes=notes, cells=ordered)
    write_all(merged, out)
    tid_lines = [f"merged from: {', '.join(shown(d) for d, _ in shards)}"]
    for d, _ in shards:
        try:
            with open(os.path.join(d, "testid.txt"), encoding="utf-8") as f:
                tid_lines.append(f"--- {shown(d)}/testid.txt\n{f.read().rstrip()}")
        except OSError:
            tid_lines.append(f"--- {shown(d)}: no testid.txt")
    write_atomic(os.path.join(out, "testid.txt"), "\n".join(tid_lines) + "\n")
    print(summary_text(merged), end="")
    print(f"(files: {shown(out)}/summary.txt, junit.xml, results.json, testid.txt)")
    _, failed, not_run = counts(merged)
    return 0 if failed == 0 and not_run == 0 else 1


def run(main, prog, argv):
    try:
        sys.exit(main(argv))
    except NightError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:       # before the first cell started: nothing to report
        print(f"{prog}: interrupted", file=sys.stderr)
        sys.exit(130)
