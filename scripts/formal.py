#!/usr/bin/env python3
"""make formal: prove, with yosys and yosys-smtbmc (z3), that credit_link keeps its credits.

For every input sequence (every channel's have, bytes, tag and drain, every pool's flush, every
return path's return_busy free in every cycle), after a reset of both ends, k-induction proves
on each grid point (one channel, lane and pool, or several at the multi-channel points), per pool:
  conservation       credits + fwd_flits + occupancy + slots_freeing + pending_returns +
                     return_waiting + return_flight == B (the probe's credit_total), every cycle
  no overflow        overflow never rises
  no send at zero    send only with credits != 0
with the strengthening invariants of formal/credit_link_checker.sv proved alongside. Then it
shows by bounded model checking (BMC) that a reset of one end alone in the middle of traffic
breaks conservation (a counterexample is required), and puts each hand-written mutant of
rtl/mutants/*.mutant and rtl/mutants/channels/*.mutant applied to its block: either BMC finds a counterexample from reset to one of
the three properties (its VCD and GTKWave save file are written), or the mutant is in
EXPLAINED below and the proof must pass with it, so a stale explanation fails (BMC to a bound,
with its symptom shown reached, for the few in BOUNDED whose own state the proof cannot bound).

  scripts/formal.py              the whole grid (make formal)
  scripts/formal.py --ci         the CI subset (ctest -L formal; docs/formal.md says which)
  scripts/formal.py --only 'L2_*' --jobs 1    items whose name matches a glob

Options: --build DIR (default build; outputs go to DIR/formal, the counterexamples' save files
are written by DIR/creditloop gtkw), --jobs N (parallel yosys/smtbmc runs, default 2), --ci,
--only GLOB, --list. Output only under DIR/formal/: formal.md (the table), <item>.vcd and
<item>.gtkw for each counterexample, work/<item>/ (each run's yosys script, SMT2 and logs),
all overwritten by the next run. Exit 0 when every grid point is proved, every one-sided reset
gives its counterexample and every mutant is refuted or explained; 1 otherwise; 2 for a bad
option (one line); 3 when a tool or the creditloop binary is missing. Standard library only.
"""
import argparse
import concurrent.futures
import fcntl
import fnmatch
import math
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mutant_patch  # noqa: E402  (scripts/mutant_patch.py: the mutants are patches of the live blocks)

ROOT = Path(__file__).resolve().parent.parent
RTL = ROOT / "rtl"
FORMAL = ROOT / "formal"
TOP = "credit_link_formal"
CHECKER = "credit_link_checker"
# Where the observed signals sit in a counterexample's waves: the checker bound into the link.
SCOPE = f"{TOP}.dut.u_formal"
SOLVER = "z3"
SMTBMC_TIMEOUT = 900          # seconds for one yosys-smtbmc run; past it the item fails
MUTANT_BMC_DEPTH = 16         # steps a mutant's counterexample is searched for (the reset is step 0)
ONE_SIDED_BMC_DEPTH = 16

# The three properties, as the checker names its assertions, with the check and the observed
# signal the simulation's scoreboards report for the same failure (the save file's story group).
PROPERTIES = {
    "p_conservation": ("conservation", "conservation.total", "link.credit_total"),
    "p_no_overflow": ("no overflow", "conservation.overflow", "link.rx.overflow"),
    "p_no_send_at_zero": ("no send at zero", "conservation.send_at_zero", "link.sender.send"),
}
ALL_PROPERTIES = "conservation, no overflow, no send at zero"


# ---- configurations

@dataclass(frozen=True)
class Config:
    """credit_link's parameters plus the formal top's environment (credit_link_formal.sv)."""
    L: int = 2
    B: int = 4
    K: int = 1
    W: int = 2
    SYNC: int = 0
    FREE_DELAY: int = 0
    POLICY: int = 0
    LOW: int = 0
    IDLE: int = 1
    TIMEOUT: int = 0
    RECOVERY: int = 0
    TOTAL_BITS: int = 8
    RESEND: int = 16
    RESETS: int = 0          # 0 once, 1 sender end alone, 2 receiver end alone, 3 both together
    FAULT_DROP: int = 0      # 1: fault_drop free (with recovery a lost update must cost no credit)
    ONE_AT_A_TIME: int = 0   # 1: flush and return_busy low: credits back one a cycle (a one-bit credit_return)
    # The link's shape (credit_link's parameters; defaults: the seeds' link of one channel, lane and
    # pool). A table is a tuple, one entry per channel, lane or pool; empty: credit_link's default.
    NCH: int = 1
    NLANE: int = 1
    NPOOL: int = 1
    MULTI_CREDIT: int = 0
    SHARED_RET: int = 0
    CH_LANE: tuple = ()
    CH_SPLIT: tuple = ()
    CH_UNIT: tuple = ()
    LANE_CH: tuple = ()
    LANE_POOL: tuple = ()
    POOL_B: tuple = ()
    POOL_K: tuple = ()

    def multi(self):
        return self.NCH > 1 or self.NLANE > 1 or self.NPOOL > 1

    def key(self):
        """LinkConfig::key() (cpp_models/link_config.cpp), then the environment."""
        b = "-".join(map(str, self.POOL_B)) if self.POOL_B else self.B
        kk = "-".join(map(str, self.POOL_K)) if self.POOL_K else self.K
        k = f"L{self.L}_B{b}_K{kk}_W{self.W}"
        if self.multi():
            k += f"_C{self.NCH}l{self.NLANE}p{self.NPOOL}"
            k += "_hd" if any(self.CH_SPLIT) else ""
            k += "_mc" if self.MULTI_CREDIT else ""
            k += "_shared" if self.SHARED_RET else ""
        k += f"_S{self.SYNC}" if self.SYNC else ""
        k += f"_D{self.FREE_DELAY}" if self.FREE_DELAY else ""
        k += f"_H{self.LOW}i{self.IDLE}" if self.POLICY == 1 else ""
        k += f"_T{self.TIMEOUT}" if self.TIMEOUT else ""
        k += f"_R{self.TOTAL_BITS}p{self.RESEND}" if self.RECOVERY else ""
        k += {0: "", 1: "_txreset", 2: "_rxreset", 3: "_linkresets"}[self.RESETS]
        k += "_drop" if self.FAULT_DROP else ""
        return k

    def describe(self):
        words = [f"L={self.L} B={self.B} K={self.K} W={self.W}"]
        if self.multi():
            b = "/".join(map(str, self.POOL_B or [self.B] * self.NPOOL))
            kk = "/".join(map(str, self.POOL_K or [self.K] * self.NPOOL))
            words = [f"L={self.L} W={self.W}, {self.NCH} channels, {self.NLANE} lanes, {self.NPOOL} pools "
                     f"B={b} K={kk}"]
            words.append("header/data" if any(self.CH_SPLIT) else "")
            words.append("multi-credit packets" if self.MULTI_CREDIT else "one-credit flits")
            words.append("one shared return path" if self.SHARED_RET else "a return path per pool")
        words.append(f"hybrid LOW={self.LOW} IDLE={self.IDLE}" if self.POLICY == 1 else "batch")
        if self.TIMEOUT:
            words.append(f"TIMEOUT={self.TIMEOUT}")
        if self.SYNC:
            words.append(f"SYNC={self.SYNC}")
        if self.FREE_DELAY:
            words.append(f"FREE_DELAY={self.FREE_DELAY}")
        if self.RECOVERY:
            words.append(f"RECOVERY TOTAL_BITS={self.TOTAL_BITS} RESEND={self.RESEND}")
        words.append({0: "", 1: "rst_tx_n free", 2: "rst_rx_n free", 3: "both resets free, together"}[self.RESETS])
        words.append("fault_drop free" if self.FAULT_DROP else "")
        words.append("no flush, no reverse traffic" if self.ONE_AT_A_TIME else "")
        return ", ".join(w for w in words if w)

    # Each table's entry width and its entries in credit_link (the packed vector's shape).
    TABLES = {"CH_LANE": (8, 8), "CH_SPLIT": (1, 8), "CH_UNIT": (16, 8), "LANE_CH": (8, 16),
              "LANE_POOL": (8, 16), "POOL_B": (16, 16), "POOL_K": (16, 16)}

    def yosys_parameters(self):
        words = []
        for name, value in vars(self).items():
            if isinstance(value, tuple):
                if not value:
                    continue
                width, entries = self.TABLES[name]
                assert len(value) <= entries and all(0 <= v < 1 << width for v in value), f"{name} = {value}"
                packed = sum(v << (i * width) for i, v in enumerate(value))
                value = f"{width * entries}'h{packed:x}"
            words.append(f"-set {name} {value}")
        return " ".join(words)

    def gtkw_options(self):
        """The same configuration as creditloop's options (creditloop gtkw)."""
        # Pool 0's (the checker's wires for the waves are pool 0's, at its widths).
        opts = ["--L", self.L, "--B", (self.POOL_B or (self.B,))[0], "--K", (self.POOL_K or (self.K,))[0], "--W", self.W]
        opts += ["--sync", self.SYNC] if self.SYNC else []
        opts += ["--free-delay", self.FREE_DELAY] if self.FREE_DELAY else []
        opts += ["--policy", "hybrid", "--low", self.LOW, "--idle", self.IDLE] if self.POLICY == 1 else []
        opts += ["--timeout", self.TIMEOUT] if self.TIMEOUT else []
        opts += ["--recovery", "--total-bits", self.TOTAL_BITS, "--resend", self.RESEND] if self.RECOVERY else []
        return [str(o) for o in opts]

    def max_induction_depth(self):
        """How deep k-induction may go before the item fails: past the longest path a credit
        takes without the invariants (a stage's contents leave the pipelines within this)."""
        return 2 * self.L + self.SYNC + self.FREE_DELAY + 6 + (max(self.POOL_B or (self.B,)) if self.multi() else 0)


def min_total_bits(b):
    """The narrowest totals with 2^n > 2B (creditloop run --recovery's default): they wrap soonest."""
    return max(1, math.ceil(math.log2(2 * b + 1)))


# The return policies of the grid: batch, seed 000's hybrid (LOW = K and IDLE = 2, the tools'
# defaults) and batch with a flush timeout.
POLICIES = {
    "batch": lambda c: c,
    "hybrid": lambda c: replace(c, POLICY=1, LOW=min(c.K, c.B), IDLE=2),
    "timeout": lambda c: replace(c, TIMEOUT=2),
}


def extra_points():
    """The points beyond the main grid, each with whether the CI subset takes it: a synchroniser,
    a late free, recovery (fault_drop free, the narrowest totals) and mid-run resets of the whole
    link. The CI leaves out the two costliest (L = 3, B = 8: about 13 s and 3.5 s of CPU)."""
    rec = lambda c: replace(c, RECOVERY=1, TOTAL_BITS=min_total_bits(c.B), FAULT_DROP=1)
    return [
        (Config(L=2, B=4, K=2, SYNC=2), True),
        (POLICIES["hybrid"](Config(L=1, B=6, K=3, SYNC=1)), True),
        (Config(L=2, B=4, K=1, FREE_DELAY=2), True),
        (POLICIES["timeout"](Config(L=3, B=8, K=3, FREE_DELAY=1)), False),
        (rec(Config(L=2, B=4, K=1, RESEND=3)), True),
        (rec(POLICIES["hybrid"](Config(L=1, B=3, K=2, RESEND=2))), True),
        (rec(POLICIES["timeout"](Config(L=3, B=8, K=3, SYNC=1, RESEND=4))), False),
        (rec(replace(POLICIES["hybrid"](Config(L=2, B=5, K=2, SYNC=1, FREE_DELAY=1)), TIMEOUT=3, RESEND=3)), True),
        (Config(L=2, B=4, K=2, RESETS=3), True),
        (replace(POLICIES["hybrid"](Config(L=1, B=3, K=3, FREE_DELAY=1)), RESETS=3), True),
    ]


def channel_points():
    """The multi-channel points, each with whether the CI subset takes it: CHI's channels with a
    return path per pool, InfiniBand's lanes sharing a pool, PCIe's header and data pools on one
    shared return path, packets costing several credits, up to three channels, with each return
    policy, recovery and mid-run resets (the shapes: channel_shapes())."""
    two, three, pcie, shared_pool = (SHAPES[n] for n in ("two", "three", "pcie", "shared_pool"))
    rec = lambda c: replace(c, RECOVERY=1, TOTAL_BITS=min_total_bits(max(c.POOL_B or (c.B,))), FAULT_DROP=1, RESEND=3)
    return [
        (two, True),
        (POLICIES["hybrid"](two), False),
        (replace(two, TIMEOUT=2, SYNC=1, FREE_DELAY=1), False),
        (three, True),
        (pcie, True),
        (shared_pool, True),
        (replace(two, RESETS=3), False),
        (rec(pcie), False),
        (rec(replace(two, SHARED_RET=1)), False),
    ]


def main_grid():
    """L 1..3, B 1..8, K 1..3 (K <= B), each return policy."""
    return [make(Config(L=L, B=B, K=K))
            for L in range(1, 4) for B in range(1, 9) for K in range(1, min(3, B) + 1)
            for make in POLICIES.values()]


def grid():
    """The whole grid (make formal): the main grid, then the extra points."""
    return main_grid() + [c for c, _ in extra_points()] + [c for c, _ in channel_points()]


def ci_grid():
    """The CI subset (ctest -L formal): the main grid at B = 1 and at B = 4 with K = 1 and 3 (a
    batch of one, and one that does not divide B), every L and policy, so each block's every
    branch is in it, and the largest loop (L = 3, B = 8, K = 3) in batches (with the other
    policies it adds about 100 s each); then the extra and multi-channel points but the
    costliest."""
    main = [c for c in main_grid()
            if c.B == 1 or (c.B == 4 and c.K in (1, 3)) or (c.L == 3 and c.B == 8 and c.K == 3 and c.POLICY == 0 and c.TIMEOUT == 0)]
    return main + [c for c, in_ci in extra_points() + channel_points() if in_ci]


ONE_SIDED = [Config(L=2, B=4, K=1, RESETS=1), Config(L=2, B=4, K=1, RESETS=2)]

# Each mutant's configuration: one where its bug is live (default: MUTANT_DEFAULT).
MUTANT_DEFAULT = Config(L=2, B=4, K=2)
RECOVERY_DEFAULT = Config(L=2, B=4, K=1, RECOVERY=1, TOTAL_BITS=4, RESEND=3, FAULT_DROP=1)
MUTANT_CONFIGS = {
    # The grant is loaded by the first reset only: it needs a reset of the link mid-run.
    "credit_counter_first_reset_only": replace(MUTANT_DEFAULT, RESETS=3),
    # The comma strip is built for stages wider than 16 bits: {valid, payload} with W = 16.
    "pipeline_comma_strip": replace(MUTANT_DEFAULT, W=16),
    "return_policy_timer_not_restarted": replace(MUTANT_DEFAULT, K=3, TIMEOUT=2),
    "update_rx_adds_total": RECOVERY_DEFAULT,
    "update_rx_limit_wraps": RECOVERY_DEFAULT,
    "update_rx_no_modular": RECOVERY_DEFAULT,
    "update_tx_no_resend": RECOVERY_DEFAULT,
    "update_tx_stale_total": RECOVERY_DEFAULT,
}


def channel_shapes():
    """The multi-channel links of the grid (channel_points) and of the channel mutants, by name."""
    two = Config(L=2, NCH=2, NLANE=2, NPOOL=2, CH_LANE=(0, 1), LANE_CH=(0, 1), LANE_POOL=(0, 1),
                 POOL_B=(3, 2), POOL_K=(1, 2))
    three = Config(L=1, NCH=3, NLANE=3, NPOOL=3, MULTI_CREDIT=1, SHARED_RET=1, CH_LANE=(0, 1, 2),
                   LANE_CH=(0, 1, 2), LANE_POOL=(0, 1, 2), POOL_B=(2, 3, 2), POOL_K=(1, 2, 1))
    # One header/data channel: header lane 0 in pool 0, data lane 1 in pool 1.
    pcie = Config(L=2, NCH=1, NLANE=2, NPOOL=2, MULTI_CREDIT=1, SHARED_RET=1, CH_LANE=(0,), CH_SPLIT=(1,),
                  LANE_CH=(0, 0), LANE_POOL=(0, 1), POOL_B=(2, 4), POOL_K=(1, 2))
    # Two channels whose lanes share one pool.
    shared_pool = Config(L=1, B=3, K=2, NCH=2, NLANE=2, NPOOL=1, MULTI_CREDIT=1, CH_LANE=(0, 1),
                         LANE_CH=(0, 1), LANE_POOL=(0, 0))
    # Nine pools on one shared return path: eight channels, the last a header/data one.
    nine = Config(L=1, B=1, NCH=8, NLANE=9, NPOOL=9, MULTI_CREDIT=1, SHARED_RET=1, CH_LANE=tuple(range(8)),
                  CH_SPLIT=(0,) * 7 + (1,), LANE_CH=tuple(range(8)) + (7,), LANE_POOL=tuple(range(9)))
    # Five channels on one pool: a round-robin pointer needs three bits.
    five = Config(L=1, B=2, NCH=5, NLANE=5, NPOOL=1, CH_LANE=tuple(range(5)), LANE_CH=tuple(range(5)),
                  LANE_POOL=(0,) * 5)
    return {"two": two, "three": three, "pcie": pcie, "shared_pool": shared_pool, "nine": nine, "five": five}


SHAPES = channel_shapes()
# Each channel mutant's configuration (rtl/mutants/channels/), one where its bug is live.
CHANNEL_MUTANT_CONFIGS = {
    "channel_arbiter_pointer_narrow": SHAPES["five"],
    "channel_grant_no_credits": SHAPES["two"],
    "channel_header_without_data": SHAPES["pcie"],
    "channel_one_credit_charge": SHAPES["three"],
    "channel_partial_credits": SHAPES["three"],
    "channel_pool_id_narrow": SHAPES["nine"],
    "channel_return_drop": SHAPES["three"],
    "channel_shared_count": SHAPES["two"],
    "channel_shared_pool_freed_or": SHAPES["shared_pool"],
    "channel_units_wrap": replace(SHAPES["three"], CH_UNIT=(4, 1, 1)),
    # update_rx is every pool's: the single link's recovery point exercises it at least cost.
    "channel_update_limit_off_by_one": RECOVERY_DEFAULT,
    "channel_wrong_pool_return": SHAPES["two"],
    # The return logic per pool: the hybrid on a return path each (the busy inputs are free), a
    # late free on two pools.
    "channel_policy_wrong_path": replace(SHAPES["two"], POLICY=1, IDLE=2),
    "channel_flush_wrong_pool": SHAPES["two"],
    "channel_late_free_uncounted": replace(SHAPES["two"], FREE_DELAY=1),
}

NOT_A_BUG = "not a conservation/overflow/send-at-zero bug"

# Mutants that break no property of the proof, and why. Each must pass the proof on its
# configuration above (checked: an explanation that no longer holds fails the run).
EXPLAINED = {
    "credit_return_no_flush":
        "timing: a flush with a partial batch returns nothing, so up to K - 1 credits wait for "
        "their batch; every credit stays counted (pending_returns), so the sum holds (lockstep "
        "catches it on the first such flush)",
    "return_policy_timer_not_restarted":
        "timing: the timeout flushes a batch early after a full batch left; a flush only returns "
        "credits sooner (lockstep catches the early flush)",
    "channel_arbiter_pointer_narrow":
        "fairness: after a grant to channel 4..7 the round-robin search starts after channel 0..3, "
        "so some channels wait longer than their turn, but every grant is of an eligible channel "
        "and charged in full (lockstep catches the grant that differs from the model's arbiter)",
    "channel_policy_wrong_path":
        "timing: a pool's hybrid flushes on another path's idleness, early or late; a flush only "
        "moves credits from the batch to the return port, so every credit stays counted (lockstep "
        "catches the flush that differs from the model's policy)",
    "channel_flush_wrong_pool":
        "timing: a pool flushes on pool 0's request instead of its own; every credit stays counted "
        "(lockstep catches the flush that differs)",
    "channel_units_wrap":
        "cost: a packet within unit - 1 bytes of 65535 is costed from a wrapped sum (one flit on one "
        "credit at unit 4), but the link charges, reserves and sends that wrong count consistently, "
        "so every credit stays counted; lockstep catches the cost that differs from the model's",
    "channel_update_limit_off_by_one":
        "needs an injected fault: only an update that fault_add enlarged by one reaches the limit "
        "B + 1 (a total no correct link sends is more than B - credits ahead), and fault_add is tied "
        "to 0 here; what breaks is update_rx's credit limit, which lockstep and conservation catch "
        "with the recovery stimulus's corruption",
    "update_rx_limit_wraps":
        "needs an injected fault: only an update that fault_add enlarged fails the wrapped limit, "
        "and with fault_add free the correct link does not conserve either (an enlarged update it "
        "accepts creates credits; the simulation's checks stand aside); what breaks is update_rx's "
        "credit limit, a_accepted_within_limit",
    "update_rx_no_modular":
        "liveness: once the running totals wrap every update is refused and the link starves, but "
        "the refused credits stay counted on the return path (CS - R), so the sum holds "
        "(starvation and recovery.refused catch it)",
    "update_tx_no_resend":
        "liveness: a lost update's credits are told again only with news, so the link can starve "
        "after a drop, but they stay counted on the return path (CS - R) (starvation catches it)",
    "update_tx_stale_total":
        "liveness: the resend carries the total before the last news, which update_rx refuses "
        "(2^TOTAL_BITS > 2B makes it look more than B ahead) or, after a drop, accepts as no more "
        "than CS - R; no credit is made or lost (recovery.refused catches it)",
}

# Mutants left out of the CI subset (make formal checks them), with why: their check costs minutes.
NOT_IN_CI = {
    "channel_units_wrap": "its proof takes about 5 minutes: bytes is free, and the cost's 17-bit divider by a "
                          "unit of 4 is hard for the solver",
    "channel_pool_id_narrow": "about 13 minutes: nine pools, and the counterexample's waves keep nine lanes' data path",
    "channel_arbiter_pointer_narrow": "its proof takes about 75 s: five channels",
}

# Explained mutants whose own new state no invariant of the link describes, so k-induction cannot
# close for them: checked by BMC instead (no property fails within MUTANT_BMC_DEPTH cycles), with
# the reason. Every other explained mutant must pass the whole proof.
# Each with the cover (formal/credit_link_checker.sv) that shows its symptom within the bound,
# so the bound is long enough for the bug to act.
BOUNDED = {
    "update_tx_stale_total": (
        "its own register older_total (the total before the last news) can hold any value in an "
        "induction step, a total no reset reaches, and it goes out with every resend until news "
        "comes; the link's invariants say nothing of a register only the mutant has",
        "c_update_refused"),
}


# ---- items and results

@dataclass
class Item:
    name: str
    kind: str                   # "grid", "one-sided", "mutant"
    config: Config
    mutant: Path = None         # rtl/mutants/<name>.mutant, applied to its block when built
    replaces: str = ""          # the block file it replaces
    sync_mutant: Path = None    # the mutant with its reset read at the clock edge (see build())
    # A design of the user's (scripts/prove.py): every file yosys reads, the formal top and the
    # module with INVARIANTS, where the observed signals sit in the waves, the top's parameters,
    # and how deep the induction may go. Empty: the project's link (the fields' defaults).
    files: tuple = ()
    top: str = TOP
    checker: str = CHECKER
    scope: str = SCOPE
    top_parameters: str = ""
    max_k: int = 0


@dataclass
class Result:
    item: Item
    result: str                 # what happened, one phrase
    ok: bool
    prop: str = ALL_PROPERTIES
    depth: str = "-"
    seconds: float = 0.0
    waves: tuple = ()           # a counterexample's VCD and save file (see gtkwave())
    note: str = ""              # why it failed, or the explanation


# yosys's error for a register that holds its value under an asynchronous reset.
ASYNC_HOLD = "yields non-constant value"


class Failure(Exception):
    """A tool run that went wrong (not a property failing): the item fails with this line."""


# ---- sources

def mutant_tags(path):
    tags = {}
    for line in path.read_text().splitlines():
        m = re.match(r"\s*//\s*creditloop-mutant:\s*(\w+)=(.*)$", line)
        if m:
            tags[m.group(1)] = m.group(2).strip()
    return tags


def bound_link(out, source=None, name="credit_link.sv"):
    """rtl/credit_link.sv (or source, a mutant's text of it) with every `bind credit_link ...` of
    formal/*.sv applied: yosys 0.23 parses bind but does not elaborate it, so the instantiation is
    put into a copy of the link (what bind means). Written to out/src/<name>."""
    source = source if source is not None else (RTL / "credit_link.sv").read_text()
    insts = []
    for f in sorted(FORMAL.glob("*.sv")):
        for m in re.finditer(r"^bind\s+credit_link\s+(.*?^\);)", f.read_text(), re.S | re.M):
            insts.append(f"  // bound from {f.relative_to(ROOT)} by scripts/formal.py\n  {m.group(1)}\n")
    if not insts:
        raise SystemExit("formal.py: no `bind credit_link ...` in formal/*.sv")
    end = source.rfind("endmodule")
    target = out / "src" / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(source[:end] + "\n".join(insts) + source[end:])
    return target


def sources(item, link):
    if item.files:
        return list(item.files)
    files = [f for f in sorted(RTL.glob("*.sv")) if f.name != "credit_link.sv"]
    if item.mutant and item.replaces == "credit_link.sv":
        # A mutant of the link itself: the checker is bound into the mutant's text.
        link = bound_link(link.parent.parent, mutant_patch.apply(item.mutant), f"{item.mutant.stem}.sv")
    elif item.mutant:
        built = link.parent / f"{item.mutant.stem}.sv"
        text = mutant_patch.apply(item.mutant)
        if not built.is_file() or built.read_text() != text:
            built.write_text(text)
        files = [(item.sync_mutant or built) if f.name == item.replaces else f for f in files]
    files += [link, RTL / "observe" / "credit_link_probe.sv"]
    files += sorted(FORMAL.glob("*.sv"))
    return files


def yosys_script(item, link, invariants, waves, smt2):
    keep = f"setattr -set keep 1 w:{item.scope.split('.', 1)[1]}.*\n" if waves else ""
    parameters = item.top_parameters or item.config.yosys_parameters()
    return (
        f"read_verilog -DSYNTHESIS -sv -formal -I{RTL / 'observe'} {' '.join(str(f) for f in sources(item, link))}\n"
        f"chparam {parameters} {item.top}\n"
        f"chparam -set INVARIANTS {1 if invariants else 0} {item.checker}\n"
        f"hierarchy -check -top {item.top}\n"
        "proc\nflatten\n"
        f"{keep}"
        "memory_map\nopt -fast\n"
        "async2sync\nchformal -assume -early\nopt_clean\nsetundef -anyseq\nopt -keepdc -fast\n"
        # A kept memory read past the last slot (B not a power of two) has no driver: free.
        f"{'setundef -undriven -anyseq' + chr(10) if waves else ''}"
        "check -assert\ndffunmap\n"
        f"write_smt2 -wires {smt2}\n")


# ---- running the tools

def run(argv, log, timeout=SMTBMC_TIMEOUT):
    try:
        out = subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        log.write_text(f"timed out after {timeout} s: {' '.join(map(str, argv))}\n")
        raise Failure(f"{Path(argv[0]).name} timed out after {timeout} s (see {log})")
    log.write_text(out.stdout + out.stderr)
    return out


def build(item, work, link, invariants, waves):
    work.mkdir(parents=True, exist_ok=True)
    tag = "waves" if waves else ("proof" if invariants else "bmc")
    smt2 = work / f"{tag}.smt2"
    script = work / f"{tag}.ys"
    script.write_text(yosys_script(item, link, invariants, waves, smt2))
    out = run(["yosys", "-q", "-l", work / f"{tag}.yosys.log", script], work / f"{tag}.yosys.out")
    if out.returncode != 0 and item.mutant and not item.sync_mutant and ASYNC_HOLD in out.stdout + out.stderr:
        # yosys 0.23's proc cannot elaborate a register that keeps its value under an
        # asynchronous reset (no flip-flop can: the reset pin loads a constant). The mutant is
        # read with its resets acting at the clock edge instead, as the simulation's harness
        # drives them (a reset pulse just after the edge): the value it holds or loads is the
        # same, one edge later. Only that mutant's file; the rest stays asynchronous.
        text = mutant_patch.apply(item.mutant)
        synced = re.sub(r"@\(\s*posedge\s+(\w+)\s+or\s+negedge\s+\w+\s*\)", r"@(posedge \1)", text)
        item.sync_mutant = work.parent.parent / "src" / f"{item.mutant.stem}.sync_reset.sv"
        item.sync_mutant.write_text(synced)
        return build(item, work, link, invariants, waves)
    if out.returncode != 0 or not smt2.exists():
        lines = [l for l in (out.stdout + out.stderr).splitlines() if "ERROR" in l] or (out.stdout + out.stderr).splitlines()[-1:]
        raise Failure(f"yosys failed: {lines[0].strip() if lines else '?'} (see {work / f'{tag}.yosys.log'})")
    return smt2


def smtbmc(smt2, log, depth, induction=False, vcd=None):
    # --unroll: z3 4.8 can stall on the uninterpreted state functions smtbmc declares by
    # default (a step-0 check of L = 2, B = 4 ran for minutes); unrolled it answers at once.
    argv = ["yosys-smtbmc", "--unroll", "-s", SOLVER, "-t", depth]
    argv += ["-i"] if induction else []
    argv += ["--dump-vcd", vcd] if vcd else []
    out = run(argv + [smt2], log)
    text = out.stdout + out.stderr
    status = re.findall(r"Status: (\w+)", text)
    if not status:
        raise Failure(f"yosys-smtbmc gave no status (see {log})")
    failed = [name.split(".")[-1] for name in re.findall(r"Assert failed in \S+: (\S+)", text)]
    steps = [int(s) for s in re.findall(r"Checking assertions in step (\d+)", text)]
    tried = [int(s) for s in re.findall(r"Trying induction in step (\d+)", text)]
    return status[-1], failed, (steps[-1] if steps else None), (tried[-1] if tried else None)


def prove(item, work, link):
    """k-induction: the induction step tried at depths 1 .. max (smtbmc -i tries them in turn),
    then the base case as deep. When the induction step fails at every depth, the base case runs
    to the maximum depth, so a real counterexample is told apart from a missing invariant.
    Returns ("proved", k, []), ("base", failing step, asserts) or ("induction", max, asserts)."""
    smt2 = build(item, work, link, invariants=True, waves=False)
    top = item.max_k or item.config.max_induction_depth()
    status, failed, _, tried = smtbmc(smt2, work / "induction.log", top, induction=True)
    k = top - tried if status == "PASSED" else top
    base_status, base_failed, step, _ = smtbmc(smt2, work / "base.log", k + 1)
    if base_status != "PASSED":
        return "base", step, base_failed
    if status != "PASSED":
        return "induction", top, failed
    return "proved", k, []


def counterexample(item, work, link, depth, out_dir, creditloop, invariants=False):
    """BMC from reset: the first step a property fails, as a VCD in the simulation's layout
    under out_dir, with its GTKWave save file. None when none within depth. The search runs on
    the lean model; the waves come from a second run, to that step, of a model that keeps every
    observed signal (the data path included, which the properties do not need)."""
    smt2 = build(item, work, link, invariants=invariants, waves=False)
    status, failed, step, _ = smtbmc(smt2, work / "bmc.log", depth)
    if status == "PASSED":
        return None
    smt2 = build(item, work, link, invariants=invariants, waves=True)
    raw = work / "trace.vcd"
    status, again, again_step, _ = smtbmc(smt2, work / "waves.log", step + 1, vcd=raw)
    if status == "PASSED" or again_step != step or not raw.exists():
        raise Failure(f"the waves run does not fail where the search did (step {step}; see {work / 'waves.log'})")
    cycle = step - 1                     # step 0 is the reset; cycle 0 is the next one
    props = [p for p in PROPERTIES if p in failed]
    first = props[0] if props else None
    vcd = out_dir / f"{item.name}.vcd"
    names = convert_vcd(raw, vcd, item.name, item.top)
    waves = (vcd,)
    if first:
        _, check, signal = PROPERTIES[first]
        argv = [creditloop, "gtkw", "--waves", vcd, "--scope", item.scope, *item.config.gtkw_options(),
                "--check", check, "--cycle", cycle, "--signal", signal]
        out = run(argv, work / "gtkw.log", timeout=60)
        if out.returncode != 0:
            raise Failure(f"creditloop gtkw failed: {(out.stderr or out.stdout).strip()[:200]}")
        save = vcd.with_suffix(".gtkw")
        missing = gtkw_signals(save) - names
        if missing:
            raise Failure(f"{save} names signals the VCD lacks: {', '.join(sorted(missing)[:4])}")
        waves = (vcd, save)
    return cycle, failed, waves


def covered(item, work, link, depth):
    """The covers reached within depth steps, each with the cycle it is first reached in."""
    smt2 = build(item, work, link, invariants=False, waves=False)
    log = work / "cover.log"
    out = run(["yosys-smtbmc", "--unroll", "-s", SOLVER, "-c", "-t", depth, smt2], log)
    reached = {}
    for name, step in re.findall(r"Reached cover statement at (\S+) in step (\d+)", out.stdout + out.stderr):
        reached.setdefault(name.split(".")[-1], int(step) - 1)
    return reached


def gtkwave(paths, base=None):
    """The command that opens a counterexample, its paths relative to base (default: the
    current directory) when they are under it."""
    base = base or Path.cwd()

    def shown(path):
        try:
            return str(path.relative_to(base))
        except ValueError:
            return str(path)
    return "gtkwave " + " ".join(shown(p) for p in paths)


# ---- waves

def convert_vcd(raw, target, title, top=TOP):
    """yosys-smtbmc's trace (step s at time 10s, 1 ns units, no bit ranges, any clock value) in
    the simulation's layout (tb/dut/verilated_link.cpp): 1 ps units, cycle t from 10t to 10t + 10
    with the clock rising at 10t + 5, vectors named name[n-1:0], and the reset step (the solver's
    initial state) not drawn, so cycle 0 is the first cycle after the reset, as in simulation.
    Returns the full names of the signals it declares."""
    scopes, stack, values, time_now = {}, [], {}, None
    declared = []                                  # (scope path, name, width, id)
    for line in raw.read_text().splitlines():
        words = line.split()
        if not words:
            continue
        if words[0] == "$scope":
            # The top scope is the formal top whatever yosys named its parameterised module
            # (a hash when a parameter is a vector: `\$paramod$<hash>/credit_link_formal`).
            stack.append(words[2] if stack else top)
        elif words[0] == "$upscope":
            stack.pop()
        elif words[0] == "$var" and words[1] == "wire" and stack:
            declared.append((tuple(stack), words[4], int(words[2]), words[3]))
        elif words[0].startswith("#"):
            t = int(words[0][1:])
            time_now = t // 10 if t % 10 == 0 else None
        elif words[0].startswith("b") and time_now is not None and len(words) == 2:
            values.setdefault(words[1], {})[time_now] = words[0][1:]
    steps = max((s for v in values.values() for s in v), default=0) + 1

    def code(n):
        chars = "".join(chr(c) for c in range(33, 127))
        out = ""
        while True:
            out += chars[n % len(chars)]
            n //= len(chars)
            if n == 0:
                return out

    lines = ["$version Generated by scripts/formal.py from yosys-smtbmc's trace $end",
             f"$comment {title}: cycle t is drawn from 10t to 10t + 10; the reset before cycle 0 is not drawn $end",
             "$timescale 1ps $end"]
    names, ids, current = set(), [], []
    ordered = sorted(declared, key=lambda d: (d[0], d[1]))
    for index, (path, name, width, ident) in enumerate(ordered):
        while current != list(path[:len(current)]) or len(current) > len(path):
            lines.append("$upscope $end")
            current.pop()
        while len(current) < len(path):
            lines.append(f"$scope module {path[len(current)]} $end")
            current.append(path[len(current)])
        mine = code(index)
        lines.append(f"$var wire {width} {mine} {name}{f' [{width - 1}:0]' if width > 1 else ''} $end")
        names.add(".".join(path) + "." + name + (f"[{width - 1}:0]" if width > 1 else ""))
        ids.append((mine, ident, width, name == "clk"))
    lines += ["$upscope $end"] * len(current) + ["$enddefinitions $end"]
    last = {}
    for step in range(1, steps):
        cycle = step - 1
        lines.append(f"#{10 * cycle}")
        for mine, ident, width, clock in ids:
            value = "0" if clock else values.get(ident, {}).get(step, last.get(mine, "x" * width))
            if last.get(mine) != value:
                lines.append(f"{value}{mine}" if width == 1 else f"b{value} {mine}")
                last[mine] = value
        lines.append(f"#{10 * cycle + 5}")
        lines += [f"1{mine}" for mine, _, _, clock in ids if clock]
        for mine, _, _, clock in ids:
            if clock:
                last[mine] = "1"
    lines.append(f"#{10 * (steps - 1)}")
    target.write_text("\n".join(lines) + "\n")
    return names


def read_vcd(path):
    """The top's own signals of yosys-smtbmc's trace, per step: {name: {step: bits}}. Step s is
    drawn from time 10 s (the trace's convention); a signal keeps its value until it changes."""
    ids, depth, values, step = {}, 0, {}, None
    for line in path.read_text().splitlines():
        words = line.split()
        if not words:
            continue
        if words[0] == "$scope":
            depth += 1
        elif words[0] == "$upscope":
            depth -= 1
        elif words[0] == "$var" and depth == 1:
            ids[words[3]] = words[4]
        elif words[0].startswith("#"):
            t = int(words[0][1:])
            step = t // 10 if t % 10 == 0 else None
        elif step is not None and words[0].startswith("b") and len(words) == 2 and words[1] in ids:
            values.setdefault(ids[words[1]], {})[step] = words[0][1:]
        elif step is not None and len(words) == 1 and words[0][:1] in "01xz" and words[0][1:] in ids:
            values.setdefault(ids[words[0][1:]], {})[step] = words[0][0]

    def at(name, s):
        seen = values.get(name, {})
        known = [k for k in seen if k <= s]
        return seen[max(known)] if known else None
    return at


def gtkw_signals(save):
    """Every signal a GTKWave save file names (its trace lines)."""
    signals = set()
    for line in save.read_text().splitlines():
        if line and line[0] not in "[@-*#" and not line.startswith(" "):
            signals.add(line.strip())
    return signals


# ---- the items

# The multi-channel harness's check for each property (scoreboards/channel_scoreboards.cpp): a
# grant without the packet's credits is fairness.ineligible there.
CHANNEL_CHECKS = {"p_conservation": "conservation.pool", "p_no_overflow": "conservation.overflow",
                  "p_no_send_at_zero": "fairness.ineligible"}


def channel_run_options(c):
    """A multi-channel Config as creditloop run's --channel options (docs/channels.md): a channel a
    packet source, each with its pool's credits and batch (and its data pool's, for a
    header/data channel), the shared pool and the shared return path, the policies, SYNC,
    FREE_DELAY and recovery. The simulation's link takes ceil(bytes / unit) credits a packet
    (MULTI_CREDIT = 1 always); a replay of a point without multi-credit packets gives each
    packet one byte (write_channel_replay)."""
    pool_b = c.POOL_B or (c.B,) * c.NPOOL
    pool_k = c.POOL_K or (c.K,) * c.NPOOL
    opts = ["--L", c.L]
    opts += ["--shared-pool"] if c.NPOOL == 1 and c.NLANE > 1 else []
    opts += ["--shared-return"] if c.SHARED_RET else []
    opts += ["--sync", c.SYNC] if c.SYNC else []
    opts += ["--free-delay", c.FREE_DELAY] if c.FREE_DELAY else []
    opts += ["--recovery", "--total-bits", c.TOTAL_BITS, "--resend", c.RESEND] if c.RECOVERY else []
    for ch in range(c.NCH):
        lane = c.CH_LANE[ch] if c.CH_LANE else ch
        pool = c.LANE_POOL[lane] if c.LANE_POOL else lane
        unit = c.CH_UNIT[ch] if c.CH_UNIT else 1
        text = f"name=C{ch},credits={pool_b[pool]},batch={pool_k[pool]}"
        most = pool_b[pool]
        if c.CH_SPLIT and c.CH_SPLIT[ch]:
            data = c.LANE_POOL[lane + 1]
            text += f",data={pool_b[data]},data_batch={pool_k[data]}"
            most = min(most, pool_b[data])
        text += f",policy=hybrid,low={c.LOW},idle={c.IDLE}" if c.POLICY == 1 else ""
        text += f",timeout={c.TIMEOUT}" if c.TIMEOUT else ""
        text += f",unit={unit},bytes=1-{unit * most if c.MULTI_CREDIT else 1}"
        opts += ["--channel", text]
    return [str(o) for o in opts]


# Whether each refuted mutant's counterexample is run in simulation (creditloop run --replay):
# --no-replay turns it off.
REPLAY = True


def replayed(item, work, out_dir, creditloop, cycle, failed):
    """The counterexample's inputs fed to the simulation of the same mutant (creditloop run
    --mutant NAME --replay FILE, the verilated RTL in lockstep with the model): (True, what it
    showed) when the check of the first failing property fails at the same cycle there, else
    (False, what it showed instead). A channel mutant's shape is the multi-channel link's, whose
    harness takes no replay: (True, "")."""
    props = [p for p in PROPERTIES if p in failed]
    if not REPLAY or not props:
        return True, ""
    import prove  # noqa: E402  (scripts/prove.py: the replay file and its run)
    target = out_dir / f"{item.name}.replay"
    multi = item.config.multi()
    if multi:
        prove.write_channel_replay(work / "trace.vcd", target, item, cycle)
        options = channel_run_options(item.config)
        check = CHANNEL_CHECKS[props[0]]
    else:
        prove.write_replay(work / "trace.vcd", target, item, cycle)
        options = item.config.gtkw_options()
        check = PROPERTIES[props[0]][1]
    argv = [creditloop, "run", "--mutant", item.mutant.stem, *options, "--replay", target]
    try:
        seen = prove.replay(argv, work / "replay.log")
    except Failure as e:
        return False, str(e)
    at = sorted(c for c, name in seen if name == check)
    if at and at[0] == cycle:
        return True, f"replayed in simulation: {check} at cycle {cycle}"
    if at and at[0] == cycle - 1 and item.sync_mutant:
        # The proof read this mutant's reset at the clock edge (build()); the simulation reads
        # it as written, asynchronously, so the reset it loads acts one edge sooner there.
        return True, (f"replayed in simulation: {check} at cycle {at[0]}, one cycle sooner than the proof: the "
                      f"simulation reads its asynchronous reset as written, the proof at the clock edge")
    return False, (f"the simulation of its inputs shows {check} at {'cycle ' + str(at[0]) if at else 'no cycle'} "
                   f"(violations {seen[:3]}; see {work / 'replay.log'})")


def check_item(item, out_dir, link, creditloop):
    work = out_dir / "work" / item.name
    if work.exists():
        shutil.rmtree(work)
    start = time.perf_counter()
    try:
        res = check_kind(item, work, out_dir, link, creditloop)
    except Failure as e:
        res = Result(item, "error", False, note=str(e))
    except Exception as e:            # a bug of this script: the item fails, the run goes on
        res = Result(item, "error", False, note=f"{type(e).__name__}: {e}")
    res.seconds = time.perf_counter() - start
    return res


def sync_note(item):
    return (f"its reset read at the clock edge ({item.sync_mutant.name}): yosys cannot elaborate a register "
            f"that holds under an asynchronous reset" if item.sync_mutant else "")


def describe_cex(failed):
    props = [PROPERTIES[p][0] for p in PROPERTIES if p in failed]
    return ", ".join(props) if props else ", ".join(failed)


def check_kind(item, work, out_dir, link, creditloop):
    if item.kind == "grid":
        verdict, depth, failed = prove(item, work, link)
        if verdict == "proved" and item.config.multi():
            # Not a proof of a link whose credits never move: every pool is spent, and the last
            # pool's credits come back.
            wanted = ["c_pools_exhausted", "c_last_pool_returned"]
            reached = covered(item, work, link, item.config.max_induction_depth() + 4)
            missing = [c for c in wanted if c not in reached]
            if missing:
                return Result(item, "vacuous", False, depth=str(depth),
                              note=f"proved, but {', '.join(missing)} not reached (see {work / 'cover.log'})")
            return Result(item, "proved", True, depth=str(depth),
                          note="every pool spent by cycle %d, the last pool's credits back by cycle %d" % (
                              reached["c_pools_exhausted"], reached["c_last_pool_returned"]))
        if verdict == "proved":
            return Result(item, "proved", True, depth=str(depth))
        if verdict == "induction":
            return Result(item, f"not proved: induction fails up to depth {depth}", False,
                          note=f"the induction step fails ({', '.join(failed)}): an invariant is missing; "
                               f"see {work / 'induction.log'}")
        # A real counterexample from reset: an RTL finding. Its waves, with the invariants off so the
        # failing property shows (or with them on, if only an invariant fails).
        cex = counterexample(item, work, link, depth + 1, out_dir, creditloop) or \
            counterexample(item, work, link, depth + 1, out_dir, creditloop, invariants=True)
        if cex is None:
            raise Failure(f"the base case fails at step {depth} ({', '.join(failed)}), but no BMC run does again")
        cycle, failed, waves = cex
        return Result(item, f"FAILS: counterexample at cycle {cycle}", False, prop=describe_cex(failed),
                      waves=waves, note="a reachable counterexample in rtl/: an RTL finding")
    if item.kind == "one-sided":
        cex = counterexample(item, work, link, ONE_SIDED_BMC_DEPTH, out_dir, creditloop)
        if cex is None:
            return Result(item, f"no counterexample within {ONE_SIDED_BMC_DEPTH} cycles", False, prop="conservation",
                          note="a one-sided reset must break conservation")
        cycle, failed, waves = cex
        ok = "p_conservation" in failed
        return Result(item, f"breaks conservation at cycle {cycle}, as expected" if ok else
                      f"counterexample at cycle {cycle}, but not to conservation", ok,
                      prop=describe_cex(failed), waves=waves)
    # a mutant
    name = item.mutant.stem
    if name in BOUNDED:
        why, cover = BOUNDED[name]
        cex = counterexample(item, work, link, MUTANT_BMC_DEPTH, out_dir, creditloop)
        if cex is None:
            reached = covered(item, work, link, MUTANT_BMC_DEPTH)
            if cover not in reached:
                return Result(item, f"passes BMC, but its symptom ({cover}) is not reached within "
                                    f"{MUTANT_BMC_DEPTH - 1} cycles", False, depth=f"BMC {MUTANT_BMC_DEPTH - 1}",
                              note="deepen MUTANT_BMC_DEPTH: the bound does not let the bug act")
            return Result(item, f"passes BMC for {MUTANT_BMC_DEPTH - 1} cycles, its {cover} reached at cycle "
                                f"{reached[cover]} (k-induction cannot close: {why}): {NOT_A_BUG}: "
                                f"{EXPLAINED[name]}", True, depth=f"BMC {MUTANT_BMC_DEPTH - 1}")
        cycle, failed, waves = cex
        return Result(item, f"stale explanation: BMC finds a counterexample at cycle {cycle}", False,
                      prop=describe_cex(failed), waves=waves, note=f"EXPLAINED says '{EXPLAINED[name][:60]}...'")
    if name in EXPLAINED:
        verdict, depth, failed = prove(item, work, link)
        if verdict == "proved":
            return Result(item, f"passes the proof: {NOT_A_BUG}: {EXPLAINED[name]}", True, depth=str(depth))
        cex = counterexample(item, work, link, MUTANT_BMC_DEPTH, out_dir, creditloop)
        what = (f"BMC finds a counterexample at cycle {cex[0]} ({describe_cex(cex[1])})" if cex else
                f"the proof fails ({verdict}: {', '.join(failed)})")
        return Result(item, "stale explanation: " + what, False, prop=describe_cex(cex[1]) if cex else "-",
                      waves=cex[2] if cex else (), note=f"EXPLAINED says '{EXPLAINED[name][:60]}...'")
    cex = counterexample(item, work, link, MUTANT_BMC_DEPTH, out_dir, creditloop)
    if cex:
        cycle, failed, waves = cex
        agrees, said = replayed(item, work, out_dir, creditloop, cycle, failed)
        return Result(item, f"refuted: counterexample at cycle {cycle}" + ("" if agrees else ", but " + said), agrees,
                      prop=describe_cex(failed), waves=waves, note="; ".join(n for n in (sync_note(item), said) if n))
    verdict, depth, failed = prove(item, work, link)
    if verdict == "proved":
        return Result(item, "passes the proof, and is not explained", False, depth=str(depth),
                      note=f"add {name} to EXPLAINED in scripts/formal.py (with why), or give it a "
                           f"configuration in MUTANT_CONFIGS where its bug shows")
    return Result(item, f"unknown: no counterexample within {MUTANT_BMC_DEPTH} cycles, proof fails ({verdict})",
                  False, note="search deeper or give it a configuration where its bug shows sooner")


def expected_cost(item):
    """A rough relative cost, for the order items are started in."""
    c = item.config
    if item.mutant and item.mutant.stem in BOUNDED:
        return 1000
    size = (c.L + c.SYNC + c.FREE_DELAY) * c.B * (2 if c.TIMEOUT else 1) * c.NCH * c.NPOOL * (1 + c.MULTI_CREDIT)
    return size * (8 if c.RECOVERY else 1)


def items(ci, only):
    chosen = [Item(c.key(), "grid", c) for c in (ci_grid() if ci else grid())]
    names = [i.name for i in chosen]
    assert len(names) == len(set(names)), "two grid points with one name"
    chosen += [Item(f"one_sided_{'sender' if c.RESETS == 1 else 'receiver'}_reset", "one-sided", c) for c in ONE_SIDED]
    for path in sorted((RTL / "mutants").glob("*.mutant")) + sorted((RTL / "mutants" / "channels").glob("*.mutant")):
        tags = mutant_tags(path)
        replaces = tags.get("replaces", "")
        channel = path.parent.name == "channels"
        if not (RTL / replaces).is_file() or (replaces == "credit_link.sv" and not channel):
            raise SystemExit(f"formal.py: {path.relative_to(ROOT)}: replaces={replaces} is not a block in rtl/")
        if channel and path.stem not in CHANNEL_MUTANT_CONFIGS:
            raise SystemExit(f"formal.py: {path.relative_to(ROOT)} has no configuration in CHANNEL_MUTANT_CONFIGS: "
                             f"add one where its bug shows")
        config = CHANNEL_MUTANT_CONFIGS[path.stem] if channel else MUTANT_CONFIGS.get(path.stem, MUTANT_DEFAULT)
        if not (ci and path.stem in NOT_IN_CI):
            chosen.append(Item(f"mutant_{path.stem}", "mutant", config, path, replaces))
    assert set(BOUNDED) <= set(EXPLAINED), "a bounded mutant needs its explanation"
    for name in list(MUTANT_CONFIGS) + list(EXPLAINED) + list(CHANNEL_MUTANT_CONFIGS) + list(NOT_IN_CI):
        if not any((RTL / "mutants" / sub / f"{name}.mutant").is_file() for sub in ("", "channels")):
            raise SystemExit(f"formal.py: {name} is in MUTANT_CONFIGS or EXPLAINED but not in rtl/mutants/")
    if only:
        chosen = [i for i in chosen if any(fnmatch.fnmatch(i.name, p) for p in only.split(","))]
    return chosen


# ---- the report

def table(results):
    rows = ["| item | parameters | property | result | induction depth | seconds |",
            "|---|---|---|---|---:|---:|"]
    for r in results:
        note = f" ({r.note})" if r.note else ""
        rows.append(f"| {r.item.name} | {r.item.config.describe()} | {r.prop} | {r.result}{note} | {r.depth} | "
                    f"{r.seconds:.1f} |")
    return rows


def summary(results, seconds, jobs):
    grid_results = [r for r in results if r.item.kind == "grid"]
    proved = sum(r.ok for r in grid_results)
    one = [r for r in results if r.item.kind == "one-sided"]
    mutants = [r for r in results if r.item.kind == "mutant"]
    refuted = sum(r.ok and r.result.startswith("refuted") for r in mutants)
    explained = sum(r.ok and NOT_A_BUG in r.result for r in mutants)
    bounded = sum(r.ok and r.depth.startswith("BMC") for r in mutants)
    depths = [int(r.depth) for r in grid_results if r.ok]
    failed = sum(not r.ok for r in results)
    return (f"{proved} of {len(grid_results)} grid points proved"
            f"{f' (induction depth {min(depths)}..{max(depths)})' if depths else ''}; "
            f"{sum(r.ok for r in one)} of {len(one)} one-sided resets break conservation; "
            f"{len(mutants)} mutant{'' if len(mutants) == 1 else 's'}: {refuted} refuted, {explained} explained"
            f"{f' ({bounded} by BMC only)' if bounded else ''}; "
            f"{failed} failed; {seconds:.1f} s with {jobs} jobs")


def main():
    parser = argparse.ArgumentParser(description="make formal: the proof of credit_link (docs/formal.md)")
    parser.add_argument("--build", default="build", help="the build directory (outputs go to BUILD/formal)")
    parser.add_argument("--jobs", type=int, default=2, help="yosys/smtbmc runs in parallel")
    parser.add_argument("--ci", action="store_true", help="the CI subset of the grid")
    parser.add_argument("--only", default="", help="only items whose name matches a glob (comma-separated)")
    parser.add_argument("--list", action="store_true", help="list the items and exit")
    parser.add_argument("--no-replay", action="store_true",
                        help="do not run the mutants' counterexamples in simulation (creditloop run --replay)")

    def one_line(message):
        print(f"formal.py: {message} (see scripts/formal.py --help)", file=sys.stderr)
        sys.exit(2)
    parser.error = one_line
    args = parser.parse_args()
    if args.jobs < 1 or args.jobs > 64:
        one_line(f"--jobs {args.jobs} is out of range: allowed 1..64")

    global REPLAY
    REPLAY = not args.no_replay
    chosen = items(args.ci, args.only)
    if args.list:
        for i in chosen:
            print(f"{i.name}: {i.kind}, {i.config.describe()}")
        return 0
    if not chosen:
        one_line(f"--only {args.only} matches no item (--list lists them)")
    missing = [t for t in ("yosys", "yosys-smtbmc", SOLVER) if not shutil.which(t)]
    if missing:
        print(f"formal.py: {', '.join(missing)} not found: scripts/install-deps.sh installs them", file=sys.stderr)
        return 3
    build_dir = Path(args.build).resolve()
    creditloop = build_dir / "creditloop"
    if not os.access(creditloop, os.X_OK):
        print(f"formal.py: {creditloop} not found: make build-cli builds it", file=sys.stderr)
        return 3
    out_dir = build_dir / "formal"
    out_dir.mkdir(parents=True, exist_ok=True)
    # One run at a time owns build/formal (its work folders are replaced): a second one waits.
    lock_file = open(out_dir / ".lock", "w")
    try:
        fcntl.flock(lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print(f"formal: another run holds {out_dir}; waiting for it", flush=True)
        fcntl.flock(lock_file, fcntl.LOCK_EX)
    for stale in [out_dir / "work", out_dir / "src"]:
        if stale.exists():
            shutil.rmtree(stale)
    if not args.only:                       # the whole run's own outputs, replaced
        for f in list(out_dir.glob("*.vcd")) + list(out_dir.glob("*.gtkw")):
            f.unlink()
    link = bound_link(out_dir)

    print(f"formal: {len(chosen)} items ({'CI subset' if args.ci else 'whole grid'}), "
          f"yosys + yosys-smtbmc ({SOLVER}), {args.jobs} jobs", flush=True)
    start = time.perf_counter()
    results, lock, done = [None] * len(chosen), threading.Lock(), [0]
    width = len(str(len(chosen)))

    def one(index):
        res = check_item(chosen[index], out_dir, link, creditloop)
        with lock:
            done[0] += 1
            results[index] = res
            depth = f", depth {res.depth}" if res.depth != "-" else ""
            print(f"[{done[0]:>{width}}/{len(chosen)}] {'ok  ' if res.ok else 'FAIL'} {res.item.name}: "
                  f"{res.result}{depth} ({res.seconds:.1f} s)" + (f"\n      {res.note}" if res.note and not res.ok else "")
                  + (f"\n      waves: {gtkwave(res.waves)}" if res.waves else ""), flush=True)
    # The slowest first (the bounded mutants' BMC, recovery, then the largest loops), so the last
    # minutes do not run on one core; the table keeps the grid's order.
    order = sorted(range(len(chosen)), key=lambda i: -expected_cost(chosen[i]))
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        list(pool.map(one, order))
    seconds = time.perf_counter() - start

    rows = table(results)
    line = summary(results, seconds, args.jobs)
    failures = [r for r in results if not r.ok]
    text = ["# creditloop formal", "",
            f"`scripts/formal.py{' --ci' if args.ci else ''}{' --only ' + args.only if args.only else ''}"
            f" --jobs {args.jobs}`: {line}", ""] + rows
    cexes = [r for r in results if r.waves]
    if cexes:
        text += ["", "Counterexamples, from the repository's root:", ""]
        text += [f"- {r.item.name}: `{gtkwave(r.waves, ROOT)}`" for r in cexes]
    (out_dir / "formal.md").write_text("\n".join(text) + "\n")
    print()
    print("\n".join(rows))
    print()
    for r in failures:
        print(f"FAIL {r.item.name}: {r.result}" + (f": {r.note}" if r.note else "") +
              (f"\n  waves: {gtkwave(r.waves)}" if r.waves else ""))
    print(f"formal: {line}")
    print(f"table: {out_dir / 'formal.md'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
