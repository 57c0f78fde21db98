#!/usr/bin/env bash
# Install what creditloop needs from Debian's packages: Verilator, SystemC, Catch2, spdlog, fmt,
# CLI11 (arguments), nlohmann-json (JSON), pugixml (XML), ccache, CMake, g++ and clang++ (which
# compiles the verilated banks in half g++'s time), Icarus Verilog (a peer simulator), yosys and
# z3 (make formal's proof); GTKWave and lcov
# (genhtml, make coverage's HTML report) with --optional.
#   scripts/install-deps.sh            install whatever is missing (needs root or sudo)
#   scripts/install-deps.sh --check    only say what is missing; exit 1 if anything is
#   scripts/install-deps.sh --optional also install gtkwave and lcov
#   scripts/install-deps.sh --sanitize also clang's sanitizer and libFuzzer runtimes (make sanitize, make fuzz)
#   scripts/install-deps.sh --slurm    also slurm-wlm and munge (make slurm-test, a local cluster)
#   scripts/install-deps.sh --report   also chromium (the HTML report's test in a headless browser)
# The options combine (CI gives all four).
set -euo pipefail

required=(verilator libsystemc-dev catch2 libspdlog-dev libfmt-dev libcli11-dev nlohmann-json3-dev libpugixml-dev
          ccache cmake make g++ clang zlib1g-dev pkg-config python3 iverilog yosys z3)
optional=(gtkwave lcov)
sanitize=(libclang-rt-14-dev)
slurm=(slurm-wlm munge)
report=(chromium)

mode=install
want=("${required[@]}")
for arg in "$@"; do
  case "$arg" in
    --check) mode=check ;;
    --optional) want+=("${optional[@]}") ;;
    --sanitize) want+=("${sanitize[@]}") ;;
    --slurm) want+=("${slurm[@]}") ;;
    --report) want+=("${report[@]}") ;;
    *) echo "install-deps.sh: unknown option '$arg' (use --check, --optional, --sanitize, --slurm or --report)" >&2; exit 2 ;;
  esac
done

missing=()
for pkg in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done

if [ ${#missing[@]} -eq 0 ]; then
  [ "$mode" = check ] || echo "install-deps.sh: everything creditloop needs is installed"
  exit 0
fi
if [ "$mode" = check ]; then
  echo "install-deps.sh: missing Debian packages: ${missing[*]}" >&2
  exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "install-deps.sh: missing ${missing[*]}; run as root: apt-get update && apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "install-deps.sh: installing ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
