#!/usr/bin/env python3
"""The seeds' Python cycle models, as printed in ../shared/seeds (000: batching, 001: the loop
with a drain period), run with any parameters. The tests compare creditloop's model and RTL with
them for configurations the seeds never printed.

    scripts/seed_models.py L B K DRAIN_EVERY [CYCLES]   -> "sends window_cycles throughput"

K > 1 needs DRAIN_EVERY = 1 (seed 000's model drains every cycle); K = 1 uses seed 001's.
The two functions below are the seeds' listings, unchanged except that they also return the
window's send count.
"""
import sys
from collections import deque


def simulate_001(L, B, cycles=6000, drain_every=1):
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
    return sent_late, sent_late / (cycles - cycles // 2)


def simulate_000(L, B, K, cycles=6000):
    credits, buf, pending, sent_late = B, 0, 0, 0
    fwd, back = deque([0] * L), deque([0] * L)
    for t in range(cycles):
        arrive, crd_in = fwd[-1], back[-1]
        send = 1 if credits > 0 else 0
        pop = 1 if buf > 0 else 0
        pending += pop
        ret = 0
        if pending >= K:
            ret, pending = K, pending - K
        credits += crd_in - send
        buf += arrive - pop
        fwd.rotate(1); fwd[0] = send
        back.rotate(1); back[0] = ret
        assert credits + sum(fwd) + buf + pending + sum(back) == B
        if t >= cycles // 2:
            sent_late += send
    return sent_late, sent_late / (cycles - cycles // 2)


def main(argv):
    if len(argv) not in (5, 6):
        print(__doc__.strip().splitlines()[4].strip(), file=sys.stderr)
        return 2
    L, B, K, drain_every = (int(a) for a in argv[1:5])
    cycles = int(argv[5]) if len(argv) == 6 else 6000
    if K > 1 and drain_every != 1:
        print("seed_models.py: K > 1 needs DRAIN_EVERY = 1 (seed 000's model drains every cycle)", file=sys.stderr)
        return 2
    sends, thr = simulate_000(L, B, K, cycles) if K > 1 else simulate_001(L, B, cycles, drain_every)
    print(sends, cycles - cycles // 2, repr(thr))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
