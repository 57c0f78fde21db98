#!/usr/bin/env python3
"""Seed 001's Python cycle model, as a benchmark peer for scripts/bench/peers.py.

    python3 scripts/bench/seed001_model.py N   -> runs simulate(4, 12, cycles=N) (L = 4, B = 12)

From "from collections import deque" to the end of simulate(), the code below is copied
verbatim from seed 001's listing (../shared/seeds/001_3debfd967b78a3f4.txt, the Python block
whose docstring starts "Cycle model of credit-based flow control over a pipelined link"). This
docstring replaces the seed's, and the __main__ below replaces the seed's table-printing code.
simulate() asserts the credit invariant every cycle; that work is part of the seed's model, so
it is kept (do not run this with python3 -O, which would strip the asserts).
"""
from collections import deque


def simulate(L, B, cycles=6000, drain_every=1):
    credits = B                       # credits held by the sender
    fwd = deque([0] * L)              # forward pipeline: 1 = a flit in that stage
    back = deque([0] * L)             # return pipeline: 1 = a credit in that stage
    buf = 0                           # flits waiting in the receiver buffer
    sent_late = 0
    for t in range(cycles):
        arrive = fwd[-1]              # flit reaching the receiver this cycle
        crd_in = back[-1]             # credit reaching the sender this cycle
        send = 1 if credits > 0 else 0
        pop = 1 if (buf > 0 and t % drain_every == 0) else 0
        # rising edge: every register updates at once
        credits += crd_in - send
        buf += arrive - pop
        fwd.rotate(1); fwd[0] = send
        back.rotate(1); back[0] = pop
        # invariant: every credit is somewhere, and the buffer never overflows
        assert credits + sum(fwd) + buf + sum(back) == B
        assert 0 <= buf <= B
        if t >= cycles // 2:
            sent_late += send
    return sent_late / (cycles - cycles // 2)


# The bench's job: L = 4, B = 12, so RTT = 2L + 2 = 10 <= B and the loop runs at full rate.
if __name__ == "__main__":
    import sys
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
