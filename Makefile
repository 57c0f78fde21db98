# creditloop's front door: a thin layer over CMake (the build) and the creditloop CLI (the runs).
#   make sim     the regression: every seed configuration on the RTL, plus seeded random traffic
#                make sim TESTS=<pattern> SEED=<n> WAVES=1   (WAVES=fst for FST; WAVES_DIR=<dir>)
#                make sim RERUN=failed   only what did not pass last time (failed, interrupted, not run)
#                make sim SYSTEMC=1      the systemc/ tests too (runs repeated under the SystemC harness)
#                make sim SHARD=2/4      one slice of the regression (a cluster's job; creditloop merge)
#                make sim RTL=<dir>   your own credit_link (every .sv in <dir>)
#                make sim DUT_COUNTER=<file.sv|map.json> DUT_RETURN=<file.sv>   your own blocks
#                make sim DUT_LINK=<map.json>   a sender and receiver of your own
#                make sim DUT_LINK=<map.json> MUTANT=<file.mutant>   with a patch of one of the map's files
#                make sim DUT_COUNTER=<map.json> PROVE=1   the proof of it too (creditloop prove; PROVE_ARGS='--L 1-2')
#                every make sim writes the HTML report: build/report/index.html (docs/report.md)
#   make test    every test through CTest: the regression, mutants, SystemC, Catch2 (ctest -L <tag>)
#   make test-fast  the tests that need no verilation (model, scoreboards, CLI, bad input), < 30 s
#   make docs-test every command the README and docs/ show, run as written; the numbers they print checked
#   make mutants the regression against every buggy RTL variant in rtl/mutants/: a kill table
#   make mutation generated mutants (yosys mutate): a mutation score, every survivor classified
#   make formal  the proof (yosys): conservation, no overflow, no send at zero over a parameter grid
#   make coverage the regression on a coverage build (build/coverage): line, toggle and cover totals, lcov HTML
#   make soak    10^9 cycles of random traffic with resets in lockstep: memory flat, cycles/s
#   make sanitize the harness and tests under ASan + UBSan (clang, build/sanitize): fast tests, a regression slice, short fuzz
#   make fuzz    every libFuzzer target for FUZZ_SECONDS (600) each, or FUZZ_TARGET=<name> alone
#   make slurm-test a single-node Slurm on 127.0.0.1: the sharded regression merged equals the unsharded one
#   make policies the return-policy table: throughput and credit messages per flit under reverse load
#   make bench   speed: harness, model, SystemC against Icarus, Verilator --timing, Python (< 5 min)
#   make timing  the RTL-change loop timed on fresh clones: make sim cold / edited / unchanged, CI
#   make network credit networks: topology x VCs x routing, deadlock, saturation against the bounds (build/network)
#   make sweep   seed 001's plot: throughput against B for L = 1, 4, 8 (build/sweep/sweep.svg)
#   make build   configure and build (the CLI lands at build/creditloop)
#   make lint    verilator --lint-only -Wall over rtl/ (the design, then with its testbench top)
#   make deps    install the Debian packages (scripts/install-deps.sh)
#   make clean   remove build/ (the verilated-configuration cache with it) and waves/*.vcd|fst
BUILD ?= build
JOBS  ?= 2
TESTS ?=
SEED  ?= 1
WAVES ?=
WAVES_DIR ?= waves
RERUN ?=
SHARD ?=
RTL   ?=
DUT_COUNTER ?=
DUT_RETURN  ?=
DUT_LINK    ?=
MUTANT      ?=
PROVE       ?=
PROVE_ARGS  ?=

ifeq ($(WAVES),fst)
  waves_flags := --waves --fst
else ifneq ($(WAVES),)
  waves_flags := --waves
endif

.PHONY: all configure build build-cli sim network soak sanitize fuzz slurm-test test test-fast docs-test timing mutants mutation formal coverage sweep policies bench lint deps clean help

all: build

help:
	@sed -n '2,31p' Makefile

deps:
	@scripts/install-deps.sh

# Install what is missing (asks for root), configure once, build incrementally. The commands
# that only run the CLI build only the CLI (build-cli); make test builds the tests too.
# Two make commands at once in one checkout (two make sim in two terminals) take turns to
# configure and build, under a lock in the build folder; what they run then shares the cache.
configure:
	@scripts/install-deps.sh --check 2>/dev/null || scripts/install-deps.sh
	@mkdir -p $(BUILD) && flock $(BUILD)/.build.lock sh -c \
	  'test -f $(BUILD)/CMakeCache.txt || cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release'

build: configure
	@flock $(BUILD)/.build.lock cmake --build $(BUILD) -j$(JOBS)

build-cli: configure
	@flock $(BUILD)/.build.lock cmake --build $(BUILD) -j$(JOBS) --target creditloop

# RERUN=failed reruns from the last JUnit file, kept as results.previous.xml (results.xml is then the rerun's).
ifeq ($(RERUN),failed)
  rerun_flags := --rerun-failed $(BUILD)/results.previous.xml
else ifneq ($(RERUN),)
  $(error RERUN=$(RERUN): the one value is RERUN=failed)
endif

sim: build-cli
	$(if $(rerun_flags),@test -f $(BUILD)/results.xml || { echo "make sim RERUN=failed: no $(BUILD)/results.xml yet: run make sim first" >&2; exit 2; })
	$(if $(rerun_flags),@cp $(BUILD)/results.xml $(BUILD)/results.previous.xml)
	$(if $(PROVE),$(if $(DUT_COUNTER)$(DUT_LINK),,@echo "make sim PROVE=1 proves your DUT_COUNTER or DUT_LINK: give one" >&2; exit 2))
	$(if $(PROVE),$(BUILD)/creditloop prove $(if $(DUT_COUNTER),--counter '$(DUT_COUNTER)',--link '$(DUT_LINK)') \
	  $(if $(MUTANT),--mutant '$(MUTANT)') --jobs $(JOBS) --out $(BUILD)/prove $(PROVE_ARGS) \
	  || echo "make sim: the proof did not pass (above); the regression runs and make sim fails after it" >&2)
	$(BUILD)/creditloop regress --seed $(SEED) --jobs $(JOBS) --junit $(BUILD)/results.xml \
	  --waves-dir '$(WAVES_DIR)' $(if $(TESTS),--filter '$(TESTS)') $(if $(RTL),--rtl '$(RTL)') \
	  $(rerun_flags) $(if $(SHARD),--shard '$(SHARD)') \
	  $(if $(DUT_COUNTER),--counter '$(DUT_COUNTER)') $(if $(DUT_RETURN),--return '$(DUT_RETURN)') \
	  $(if $(DUT_LINK),--link '$(DUT_LINK)') $(if $(MUTANT),--mutant '$(MUTANT)') $(if $(SYSTEMC),--systemc) $(waves_flags) \
	  --report $(BUILD)/report
	$(if $(PROVE),@python3 -c "import json; import sys; r = json.load(open('$(BUILD)/prove/results.json'))['results']; sys.exit(any(x['result'] != 'proved' for x in r))" 2>/dev/null \
	  || { echo "make sim: not every configuration of the proof is proved: $(BUILD)/prove/proof.md" >&2; exit 1; })
	$(if $(TESTS)$(RTL)$(DUT_COUNTER)$(DUT_RETURN)$(DUT_LINK)$(MUTANT)$(SHARD)$(rerun_flags),,$(BUILD)/creditloop network --slice --seed $(SEED))

network: build-cli
	$(BUILD)/creditloop network --table $(BUILD)/network --force --seed $(SEED)

sweep: build-cli
	$(BUILD)/creditloop sweep --preset seed001 --out $(BUILD)/sweep --force --jobs $(JOBS)

# The soak (tb/commands/soak.cpp): 10^9 cycles unless CYCLES=; about two minutes.
CYCLES ?= 1000000000
soak: build-cli
	$(BUILD)/creditloop soak --cycles $(CYCLES) --seed $(SEED)

# The sanitizer build (docs/fuzzing.md): a clang tree of its own, build/sanitize, with ASan and UBSan
# on the harness, model, scoreboards, CLI and tests (reports fatal); it runs ctest -L fast there, a
# slice of the regression on the main build's banks (build-cli first, so they exist) and every fuzz
# target for FUZZ_SECONDS_CI seconds. CI runs it after make test.
FUZZ_SECONDS_CI ?= 8
sanitize: build-cli
	@scripts/install-deps.sh --check --sanitize 2>/dev/null || scripts/install-deps.sh --sanitize
	FUZZ_SECONDS=$(FUZZ_SECONDS_CI) JOBS=$(JOBS) scripts/sanitize.sh

# Every libFuzzer target (fuzz/) for FUZZ_SECONDS each, over build/sanitize/fuzz_corpus/; builds the
# sanitizer tree first (without its tests) when it is missing. FUZZ_TARGET=<name> runs one.
FUZZ_SECONDS ?= 600
FUZZ_TARGET ?=
fuzz:
	@scripts/install-deps.sh --check --sanitize 2>/dev/null || scripts/install-deps.sh --sanitize
	@test -f $(BUILD)/sanitize/fuzz_targets.txt || FUZZ_SECONDS=0 SANITIZE_ONLY_BUILD=1 JOBS=$(JOBS) scripts/sanitize.sh
	@cmake --build $(BUILD)/sanitize -j$(JOBS) --target fuzz_targets > $(BUILD)/sanitize/fuzz_build.log 2>&1 || \
	  { tail -20 $(BUILD)/sanitize/fuzz_build.log >&2; exit 3; }
	scripts/fuzz.sh --build $(BUILD)/sanitize --seconds $(FUZZ_SECONDS) $(if $(FUZZ_TARGET),--target '$(FUZZ_TARGET)')

# The sharded regression through a real Slurm (docs/slurm.md): munged, slurmctld and slurmd on
# 127.0.0.1 in a temporary folder, 3 shards merged against the unsharded run; stops what it started.
slurm-test: build-cli
	@scripts/install-deps.sh --check --slurm 2>/dev/null || scripts/install-deps.sh --slurm
	tests/slurm/test_slurm.sh

# BENCH_ARGS= passes options to scripts/bench.py (fewer cycles or runs: python3 scripts/bench.py --help).
BENCH_ARGS ?=
bench: build-cli
	python3 scripts/bench.py --build $(BUILD) $(BENCH_ARGS)

policies: build-cli
	$(BUILD)/creditloop policies --jobs $(JOBS)

mutants: build-cli
	$(BUILD)/creditloop mutants --seed $(SEED) --jobs $(JOBS) --waves-dir waves/mutants

# Generated mutants (scripts/mutation.py): yosys's mutate pass on credit_link elaborated for each
# stimulus set's parameters, one netlist per set of parameters, each survivor classified with
# yosys. COUNT mutants of the one-channel link's netlists and CHANNEL_COUNT of the multi-channel
# link's; writes $(BUILD)/mutation/mutation.md. CTest runs its CI subset.
COUNT ?= 120
CHANNEL_COUNT ?= 160
mutation: build-cli
	@command -v yosys >/dev/null || scripts/install-deps.sh
	python3 scripts/mutation.py --build $(BUILD) --count $(COUNT) --channel-count $(CHANNEL_COUNT) --seed $(SEED) --jobs $(JOBS)

# Code coverage (docs/coverage.md): a build tree of its own, $(BUILD)/coverage, whose banks are
# verilated with line, toggle and user coverage; the normal build and its banks are untouched.
coverage:
	@scripts/install-deps.sh --check 2>/dev/null || scripts/install-deps.sh
	python3 scripts/coverage.py --build $(BUILD)/coverage --jobs $(JOBS) --seed $(SEED) $(if $(TESTS),--filter '$(TESTS)')

# The proof (docs/formal.md): k-induction with yosys and yosys-smtbmc over the whole parameter
# grid, one-sided resets and the mutants by bounded model checking; the table goes to
# $(BUILD)/formal/formal.md, counterexamples' waves beside it. CTest runs its CI subset.
# FORMAL_ONLY=<globs> proves only the items whose names match (python3 scripts/formal.py --list).
FORMAL_ONLY ?=
formal: build-cli
	python3 scripts/formal.py --build $(BUILD) --jobs $(JOBS) $(if $(FORMAL_ONLY),--only '$(FORMAL_ONLY)')

# The tests labelled slow (docs_slow: the documented commands that build a tree of their own, such
# as make coverage) are left out; cd build && ctest -L slow runs them, and so does make docs-test.
test: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS) -LE slow

# The docs test (scripts/docs_check.py): every command the README and docs/ show, run as written
# from the checkout root (the slow ones at a reduced size), and the numbers they print compared.
docs-test: build
	python3 scripts/docs_check.py

test-fast: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS) -L fast

# The change-RTL-and-rerun loop measured on fresh clones in a temporary directory (a table).
timing:
	python3 scripts/timing.py

lint: build
	verilator --lint-only -Wall -Wno-DECLFILENAME --top-module credit_link rtl/*.sv
	$(BUILD)/creditloop tops --out $(BUILD)/tops --force >/dev/null
	verilator --lint-only -Wall -Wno-DECLFILENAME -Irtl/observe --top-module credit_link_observed rtl/*.sv rtl/observe/*.sv $(BUILD)/tops/credit_link_observed.sv
	verilator --lint-only -Wall -Wno-DECLFILENAME -Irtl/observe --top-module channel_link_observed rtl/*.sv rtl/observe/*.sv $(BUILD)/tops/channel_link_observed.sv
	for net in "-GTOPO=0 -GNX=4 -GV=1" "-GTOPO=1 -GNX=8 -GROUTING=1 -GV=2" "-GTOPO=2 -GNX=4 -GNY=4 -GV=4 -GB=8 -GL=3" \
	    "-GTOPO=2 -GNX=4 -GNY=4 -GROUTING=1 -GV=3 -GB=4"; do \
	  verilator --lint-only -Wall -Wno-DECLFILENAME --top-module noc_network $$net rtl/noc/*.sv rtl/rx_buffer.sv \
	    rtl/credit_counter.sv rtl/credit_return.sv rtl/pipeline.sv || exit 1; done

clean:
	rm -rf $(BUILD)
	rm -rf waves/*.vcd waves/*.fst waves/*.gtkw waves/mutants
