"""Scenario files: one cell group each, expanded into cells against the binary's catalogue.

A scenario is a few 'field: value' lines ('#' starts a comment); lists are separated by
spaces or commas, and every list field multiplies the cells (kernel x walk x lock x bug x build).
FIELDS below is the whole language; stress/README.md shows it with examples.
"""
import os
import shlex
import subprocess
from dataclasses import dataclass, field

from . import NightError, parse_seconds

BUILDS = ("plain", "tsan", "asan")

FIELDS = {
    "name": "the cell group, first part of each cell's id (default: the file's name)",
    "kernel": "kernel eras (--kernel), or all: every era `cgtorture eras` lists; what an era "
              "shipped with is known, not a failure (SUMMARY known=N)",
    "walk": "thread-group walks (--iter): for_each, while_each",
    "lock": "css_set locks (--css-lock), or all: every lock `cgtorture locks` lists that is not a known bug",
    "tasklist-lock": "tasklist_lock variants (--tasklist-lock), or all",
    "bug": "catalogued bugs (--bug, with the options `cgtorture bugs --tsv` gives), or all",
    "twin": "yes: run each bug's fixed twin instead (its options without --bug)",
    "build": "plain, tsan, asan, or catalogue: the build each bug needs",
    "expect": "pass, or fail: the detector must report",
    "detector": "with expect fail: the detector that must report (--stop-on): a name, catalogue, or any",
    "share": "the cell's weight when the budget is spread over the cells (default 1)",
    "min": "the shortest run a cell may be given, e.g. 2s (default 1s)",
    "duration": "a fixed run length, e.g. 5s, instead of a share of the budget",
    "options": "more cgtorture run options, for every cell",
    "options-plain": "more options for the plain build only",
    "options-tsan": "more options for the TSan build only",
    "options-asan": "more options for the ASan build only",
}

# set by the driver for every cell: a scenario may not set them through options
DRIVER_OPTIONS = ("--duration", "--seed", "--out", "--expect", "--stop-on")


@dataclass
class Cell:
    """One run of the binary with one expectation: the unit of the night."""
    id: str
    group: str
    source: str
    build: str
    expect: str                      # "pass" or "fail"
    detector: str = None             # with expect fail: the detector that must report
    bug: str = None
    twin: bool = False
    share: float = 1.0
    min_s: float = 1.0
    fixed_s: float = None
    options: list = field(default_factory=list)
    # filled in by the plan
    duration_s: float = 0.0
    seed: int = 0
    timeout_s: float = 0.0

    @property
    def folder(self):
        return self.id.replace("/", ".")

    def run_args(self):
        """The arguments after the binary's name (without --out, which the runner adds)."""
        args = ["run"] + self.options + ["--duration", f"{int(round(self.duration_s * 1000))}ms",
                                         "--seed", str(self.seed), "--expect", self.expect]
        if self.expect == "fail":
            args += ["--stop-on", self.detector]
        return args

    def stall_s(self):
        """The --stall the run will use: the last one given, else the build's default."""
        stall = None
        for i, a in enumerate(self.options[:-1]):
            if a == "--stall":
                stall = self.options[i + 1]
        if stall is not None:
            try:
                return parse_seconds(stall, "--stall")
            except NightError:
                pass
        return 2.0 * {"plain": 1, "asan": 4, "tsan": 8}[self.build]


class Catalogue:
    """What the binary knows: its bugs (`bugs --tsv`) and its lock variants (`locks`)."""

    def __init__(self, binary):
        self.binary = binary
        self.bugs = {}
        for line in self._ask("bugs", "--tsv"):
            cols = line.split("\t")
            if len(cols) < 3:
                continue
            name, detector, build = cols[:3]
            opts = shlex.split(cols[3]) if len(cols) > 3 else []
            self.bugs[name] = {"detector": detector, "build": build, "options": opts}
        self.locks = []
        self.correct_locks = []
        for line in self._ask("locks"):
            if not line.strip():
                continue
            name = line.split()[0]
            self.locks.append(name)
            if "known bug:" not in line:
                self.correct_locks.append(name)
        self.eras = [line.split("\t")[0] for line in self._ask("eras") if line.strip()]
        if not self.bugs or not self.correct_locks or not self.eras:
            raise NightError(f"{binary}: could not read its catalogue (bugs --tsv, locks, eras)")

    def _ask(self, *args):
        try:
            p = subprocess.run([self.binary, *args], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise NightError(f"cannot run {self.binary} {' '.join(args)}: {e}")
        if p.returncode != 0:
            first = (p.stderr or p.stdout).strip().splitlines()[:1]
            raise NightError(f"{self.binary} {' '.join(args)}: status {p.returncode} {first}")
        return p.stdout.splitlines()


def _words(value):
    return value.replace(",", " ").split()


def read_scenario(path):
    """The fields of one scenario file, as {field: (value, line number)}; NightError if bad."""
    fields = {}
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.split(" #")[0].split("\t#")[0].strip()
            if not line or line.startswith("#"):
                continue
            if ":" not in line:
                raise NightError(f"{path}:{n}: expected 'field: value', got '{line}'")
            key, value = (s.strip() for s in line.split(":", 1))
            if key not in FIELDS:
                raise NightError(f"{path}:{n}: unknown field '{key}' (fields: {', '.join(FIELDS)})")
            if key in fields:
                raise NightError(f"{path}:{n}: field '{key}' given twice (first on line {fields[key][1]})")
            fields[key] = (value, n)
    return fields


def expand(path, cat):
    """The cells of one scenario file."""
    fields = read_scenario(path)

    def get(key, default=None):
        return fields[key][0] if key in fields else default

    def bad(key, msg):
        line = fields[key][1] if key in fields else "1"
        return NightError(f"{path}:{line}: {key}: {msg}")

    name = get("name") or os.path.splitext(os.path.basename(path))[0]
    if "/" in name or not _words(name) == [name]:
        raise bad("name", f"'{name}' must be one word without '/'")

    expect = get("expect", "pass")
    if expect not in ("pass", "fail"):
        raise bad("expect", f"'{expect}' is neither pass nor fail")

    twin = get("twin", "no")
    if twin not in ("yes", "no"):
        raise bad("twin", f"'{twin}' is neither yes nor no")
    twin = twin == "yes"

    bugs = _words(get("bug", ""))
    if bugs == ["all"]:
        bugs = list(cat.bugs)
    for b in bugs:
        if b not in cat.bugs:
            raise bad("bug", f"unknown bug '{b}' (catalogue: {', '.join(cat.bugs)})")
    if twin and not bugs:
        raise bad("twin", "a twin needs a bug: field")
    if twin and expect == "fail":
        raise bad("expect", "a fixed twin is expected to pass")

    def variants(key, flag):
        vals = _words(get(key, ""))
        if vals == ["all"]:
            vals = list(cat.eras if key == "kernel" else cat.correct_locks)
        for v in vals:
            if key.endswith("lock") and v not in cat.locks:
                raise bad(key, f"unknown lock '{v}' (variants: {', '.join(cat.locks)})")
            if key == "kernel" and v not in cat.eras:
                raise bad(key, f"unknown era '{v}' (eras: {', '.join(cat.eras)})")
        return [(v, [flag, v]) for v in vals] or [(None, [])]

    kernels = variants("kernel", "--kernel")
    walks = variants("walk", "--iter")
    locks = variants("lock", "--css-lock")
    tlocks = variants("tasklist-lock", "--tasklist-lock")

    builds = _words(get("build", "plain"))
    for b in builds:
        if b == "catalogue":
            if not bugs:
                raise bad("build", "catalogue names the build of each bug: it needs a bug: field")
        elif b not in BUILDS:
            raise bad("build", f"unknown build '{b}' (builds: {', '.join(BUILDS)}, catalogue)")

    detector = get("detector")
    if expect == "pass" and detector:
        raise bad("detector", "only a cell that expects fail waits for a detector")
    if expect == "fail":
        detector = detector or ("catalogue" if bugs and not twin else "any")
        if detector == "catalogue" and not bugs:
            raise bad("detector", "catalogue names each bug's detector: it needs a bug: field")

    def seconds(key, default):
        if key not in fields:
            return default
        v = parse_seconds(get(key), f"{path}:{fields[key][1]}: {key}")
        if v <= 0:
            raise bad(key, "must be more than 0")
        return v

    share = get("share", "1")
    try:
        share = float(share)
        if share <= 0:
            raise ValueError
    except ValueError:
        raise bad("share", f"'{share}' is not a positive number")
    min_s = seconds("min", 1.0)
    fixed_s = seconds("duration", None)

    options = {}
    for key in ("options",) + tuple(f"options-{b}" for b in BUILDS):
        try:
            opts = shlex.split(get(key, ""))
        except ValueError as e:
            raise bad(key, str(e))
        for o in opts:
            if o.split("=")[0] in DRIVER_OPTIONS:
                raise bad(key, f"{o.split('=')[0]} is set by the driver for every cell")
        options[key] = opts

    cells = []
    for (kernel, kernel_opts), (walk, walk_opts) in ((k, w) for k in kernels for w in walks):
        for lock, lock_opts in locks:
            for tlock, tlock_opts in tlocks:
                for bug in bugs or [None]:
                    for build in builds:
                        if build == "catalogue":
                            build = cat.bugs[bug]["build"]
                        parts = [name] + [p for p in (kernel, walk, lock, tlock, bug) if p] + [build]
                        opts = []
                        if bug:
                            opts = ([] if twin else ["--bug", bug]) + cat.bugs[bug]["options"]
                        opts += kernel_opts + walk_opts + lock_opts + tlock_opts
                        opts += options["options"] + options[f"options-{build}"]
                        det = detector
                        if det == "catalogue":
                            det = cat.bugs[bug]["detector"]
                        cells.append(Cell(id="/".join(parts), group=name, source=path,
                                          build=build, expect=expect, detector=det, bug=bug,
                                          twin=twin, share=share, min_s=min_s, fixed_s=fixed_s,
                                          options=opts))
    return cells


def load(scenario_dir, cat):
    """Every cell of every *.scn file in the folder, in file order; NightError if bad."""
    try:
        files = sorted(f for f in os.listdir(scenario_dir) if f.endswith(".scn"))
    except OSError as e:
        raise NightError(f"scenarios: cannot read {scenario_dir}: {e.strerror}")
    if not files:
        raise NightError(f"scenarios: no *.scn file in {scenario_dir}")
    cells, seen = [], {}
    for f in files:
        for c in expand(os.path.join(scenario_dir, f), cat):
            if c.id in seen:
                raise NightError(f"{c.source}: cell {c.id} is also made by {seen[c.id]}")
            seen[c.id] = c.source
            cells.append(c)
    return cells
