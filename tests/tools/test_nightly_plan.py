"""The nightly driver's plan (stress/cgtnight/plan.py), without running a cell: the budget's
sums, the shares and minimums, the seeds, the timeouts and the shards' balance.

Usage: python3 tests/tools/test_nightly_plan.py   (from the top of the tree; standard library only)
"""
import datetime
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "stress"))

from cgtnight import NightError, plan          # noqa: E402
from cgtnight.scenario import Cell             # noqa: E402


def cells(spec):
    """Cells from (build, share, min_s, fixed_s) rows, ids in order."""
    return [Cell(id=f"g/c{i}/{b}", group="g", source="t.scn", build=b, expect="pass",
                 share=share, min_s=mn, fixed_s=fixed)
            for i, (b, share, mn, fixed) in enumerate(spec)]


def planned(c):
    return sum(plan.cost(x) for x in c)


class Seeds(unittest.TestCase):
    def test_night_seed_is_the_base_plus_the_date(self):
        self.assertEqual(plan.night_seed(0, datetime.date(2026, 12, 6)), 20261206)
        self.assertEqual(plan.night_seed(5, datetime.date(2026, 1, 2)), 20260107)

    def test_cell_seed_depends_on_the_night_and_the_id_alone(self):
        a = plan.cell_seed(20261206, "variant/for_each/rwsem/tsan")
        self.assertEqual(a, plan.cell_seed(20261206, "variant/for_each/rwsem/tsan"))
        self.assertNotEqual(a, plan.cell_seed(20261207, "variant/for_each/rwsem/tsan"))
        self.assertNotEqual(a, plan.cell_seed(20261206, "variant/for_each/rwsem/asan"))
        self.assertTrue(0 <= a < 2 ** 32)


class Spread(unittest.TestCase):
    def test_the_budget_holds_every_cell_and_its_overhead(self):
        c = cells([("plain", 3, 2, None), ("tsan", 3, 2, None), ("asan", 1, 2, None),
                   ("plain", 1, 1, 5.0)])
        plan.spread(c, 120)
        self.assertLessEqual(planned(c), 120 + 1e-9)
        # rounding down to tenths leaves at most a tenth per flexible cell unspent
        self.assertGreater(planned(c), 120 - 0.1 * 3 - 1e-9)
        self.assertEqual(c[3].duration_s, 5.0, "a fixed duration is kept")

    def test_shares_divide_what_is_left_in_proportion(self):
        c = cells([("plain", 1, 1, None), ("plain", 3, 1, None)])
        plan.spread(c, 41)                        # 40 s left after two 0.5 s overheads
        self.assertAlmostEqual(c[0].duration_s, 10.0, delta=0.1)
        self.assertAlmostEqual(c[1].duration_s, 30.0, delta=0.1)

    def test_a_share_below_its_minimum_gets_the_minimum_and_the_rest_is_shared_again(self):
        c = cells([("plain", 1, 8, None), ("plain", 9, 1, None)])
        plan.spread(c, 21)                        # 20 s: a tenth would be 2 s, below 8
        self.assertEqual(c[0].duration_s, 8)
        self.assertAlmostEqual(c[1].duration_s, 12.0, delta=0.1)
        self.assertLessEqual(planned(c), 21 + 1e-9)

    def test_minimums_that_do_not_fit_are_refused_before_anything_runs(self):
        c = cells([("tsan", 1, 30, None)] * 3)
        with self.assertRaises(NightError) as e:
            plan.spread(c, 60)
        self.assertIn("too small for 3 cells", str(e.exception))


class Timeouts(unittest.TestCase):
    def test_a_cell_is_killed_only_past_the_binarys_own_deadline(self):
        c = cells([("plain", 1, 1, 10.0)])[0]
        plan.spread([c], 60)
        deadline = c.duration_s + c.stall_s() + 4
        self.assertGreater(plan.timeout_s(c, 10), deadline + 10)


class Shards(unittest.TestCase):
    spec = [("tsan", 3, 2, None), ("plain", 1, 2, None), ("asan", 2, 2, None),
            ("plain", 5, 2, None), ("tsan", 1, 2, None), ("plain", 1, 2, 7.0),
            ("asan", 1, 2, None)]

    def night(self):
        c = cells(self.spec)
        plan.make(c, 200, 20261206, 10)
        return c

    def test_shards_are_disjoint_cover_the_night_and_keep_its_order(self):
        c = self.night()
        for n in (1, 2, 3, 7, 9):
            slices = [plan.shard(c, k, n) for k in range(1, n + 1)]
            ids = [x.id for s in slices for x in s]
            self.assertEqual(sorted(ids), sorted(x.id for x in c), f"{n} shards")
            for s in slices:
                order = [c.index(x) for x in s]
                self.assertEqual(order, sorted(order))

    def test_shards_are_balanced_within_the_longest_cell(self):
        c = self.night()
        longest = max(plan.cost(x) for x in c)
        for n in (2, 3, 4):
            loads = [planned(plan.shard(c, k, n)) for k in range(1, n + 1)]
            self.assertLessEqual(max(loads) - min(loads), longest + 1e-9, f"{n} shards: {loads}")

    def test_a_shard_keeps_the_seeds_and_durations_of_the_whole_night(self):
        whole = {x.id: (x.seed, x.duration_s, x.timeout_s) for x in self.night()}
        for k in (1, 2, 3):
            for x in plan.shard(self.night(), k, 3):
                self.assertEqual((x.seed, x.duration_s, x.timeout_s), whole[x.id])

    def test_parse_shard(self):
        self.assertEqual(plan.parse_shard("2/4"), (2, 4))
        for bad in ("0/4", "5/4", "x/4", "2", ""):
            with self.assertRaises(NightError):
                plan.parse_shard(bad)


if __name__ == "__main__":
    unittest.main(verbosity=1)
