"""The nightly driver of cgtorture: scenarios, the plan, running cells, the night's files.

It runs the cgtorture binaries as child processes and reads what they print and write
(the SUMMARY line, report.json); it never links into them.

  scenario  scenario files (stress/scenarios/*.scn) -> cells, against the binary's catalogue
  plan      durations within the budget, seeds, shards
  cell      one cell as a child process with a hard timeout, and its verdict
  output    summary.txt, junit.xml, results.json, testid.txt
  main      the command lines of stress/nightly and stress/merge
"""


class NightError(Exception):
    """Bad input: one line for the user, exit status 2, before anything starts."""


def parse_seconds(text, what):
    """'30m', '90s', '1h30m', '500ms', '2.5' (seconds) -> seconds, or NightError."""
    import re

    s = str(text).strip()
    units = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "": 1}
    parts = re.findall(r"(\d+(?:\.\d+)?)(ms|s|m|h|)", s)
    if not s or "".join(n + u for n, u in parts) != s or (len(parts) > 1 and "" in [u for _, u in parts]):
        raise NightError(f"{what}: '{text}' is not a time (e.g. 90s, 30m, 1h30m, 500ms)")
    return sum(float(n) * units[u] for n, u in parts)


def fmt_seconds(s):
    """A short human time: 0.3s, 42s, 4m05s, 1h02m."""
    if s < 10:
        return f"{s:.1f}s"
    s = int(round(s))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"
