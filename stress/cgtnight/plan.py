"""The night's plan: each cell's duration within the budget, its seed, its timeout, its shard.

The plan depends only on the cells, the budget and the night seed, never on the shard: every
shard of a night computes the same plan and runs its own slice of it, so the shards' cells
are disjoint and keep the seeds and durations they would have had in one night.
"""
import hashlib

from . import NightError, fmt_seconds

# What a cell costs besides its --duration (start, the last invariant check, draining every
# model thread, the sanitizer's exit), in seconds, measured on the 2-core build machine.
OVERHEAD_S = {"plain": 0.5, "asan": 1.0, "tsan": 3.0}


def night_seed(base_seed, date):
    """The night's seed: the base seed plus the date as YYYYMMDD, so each night differs."""
    return base_seed + int(date.strftime("%Y%m%d"))


def cell_seed(night, cell_id):
    """A cell's seed: from the night's seed and the cell's id only (so a shard keeps it)."""
    return int.from_bytes(hashlib.sha256(f"{night}/{cell_id}".encode()).digest()[:4], "big")


def timeout_s(cell, margin):
    """The driver's hard limit for a cell: past the binary's own deadline
    (duration + stall + 4 s), plus a margin for start-up and the sanitizers' exit."""
    return round(cell.duration_s + cell.stall_s() + 4 + margin + 0.1 * cell.duration_s, 1)


def spread(cells, budget):
    """Give each cell a duration: what the budget leaves after every cell's overhead and the
    fixed durations, shared by weight; a cell whose share falls below its minimum gets the
    minimum and the rest is shared again. NightError if even the minimums do not fit."""
    fixed = sum(OVERHEAD_S[c.build] for c in cells) + sum(c.fixed_s or 0 for c in cells)
    flex = [c for c in cells if c.fixed_s is None]
    need = fixed + sum(c.min_s for c in flex)
    if need > budget + 1e-9:
        raise NightError(f"--budget {fmt_seconds(budget)} is too small for {len(cells)} cells: "
                         f"they need at least {fmt_seconds(need)} (give more, or fewer cells "
                         f"with --only)")
    for c in cells:
        if c.fixed_s is not None:
            c.duration_s = c.fixed_s
    pinned = set()
    while True:
        left = budget - fixed - sum(c.min_s for c in flex if id(c) in pinned)
        shares = sum(c.share for c in flex if id(c) not in pinned)
        unit = left / shares if shares else 0
        low = [c for c in flex if id(c) not in pinned and c.share * unit < c.min_s]
        if not low:
            break
        pinned.update(id(c) for c in low)
    for c in flex:
        c.duration_s = c.min_s if id(c) in pinned else c.share * unit
        c.duration_s = max(c.min_s, int(c.duration_s * 10) / 10)   # whole tenths, rounded down


def make(cells, budget, night, margin):
    """Fill in every cell's duration, seed and timeout."""
    spread(cells, budget)
    for c in cells:
        c.seed = cell_seed(night, c.id)
        c.timeout_s = timeout_s(c, margin)


def cost(cell):
    return cell.duration_s + OVERHEAD_S[cell.build]


def shard(cells, k, n):
    """The k-th (1-based) of n disjoint slices, balanced by planned time: the longest cells
    first, each to the slice with the least so far (ties: the lower slice, the earlier cell).
    Within a slice the cells keep the matrix's order."""
    load = [0.0] * n
    owner = {}
    for i in sorted(range(len(cells)), key=lambda i: (-cost(cells[i]), i)):
        s = min(range(n), key=lambda s: (load[s], s))
        load[s] += cost(cells[i])
        owner[i] = s
    return [c for i, c in enumerate(cells) if owner[i] == k - 1]


def parse_shard(text):
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise NightError(f"--shard: '{text}' is not K/N (e.g. 2/4)")
    if not 1 <= k <= n:
        raise NightError(f"--shard: {text}: K must be from 1 to N")
    return k, n
