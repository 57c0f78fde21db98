#!/usr/bin/env python3
"""Seed 001's Python cycle model, as a benchmark peer for scripts/bench/peers.py.

    python3 scripts/bench/seed001_model.py N   -> runs simulate(4, 12, cycles=N) (L = 4, B = 12)

simulate() is seed 001's listing, verbatim, as scripts/seed_models.py keeps it (simulate_001,
which also returns the window's send count); the __main__ below replaces the seed's
table-printing code. It asserts the credit invariant every cycle; that work is part of the
seed's model, so it is kept (do not run this with python3 -O, which would strip the asserts).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from seed_models import simulate_001  # noqa: E402  (scripts/ on the path first)


def simulate(L, B, cycles=6000, drain_every=1):
    return simulate_001(L, B, cycles, drain_every)[1]


# The bench's job: L = 4, B = 12, so RTT = 2L + 2 = 10 <= B and the loop runs at full rate.
if __name__ == "__main__":
    if len(sys.argv) != 2 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 2:
        sys.exit("usage: seed001_model.py CYCLES   (CYCLES >= 2)")
    L, B, n = 4, 12, int(sys.argv[1])
    thr = simulate(L, B, cycles=n)
    expect = min(1.0, B / (2 * L + 2))
    # The seed's own check: within 0.002 of min(1, B / RTT).
    verdict = "PASS" if abs(thr - expect) < 0.002 else "FAIL"
    print(f"{verdict}: throughput {thr:.3f} flits/cycle (expected {expect:.3f}) "
          f"for L = {L}, B = {B}; {n} cycles simulated")
    sys.exit(0 if verdict == "PASS" else 1)
