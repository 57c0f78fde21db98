#!/usr/bin/env bash
# Build and run the credit network's smoke test (tests/noc/noc_smoke.cpp): the networks of
# tests/noc/noc_smoke_top.sv verilated into one model, in OUT (default build/noc_smoke).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${1:-$root/build/noc_smoke}
mkdir -p "$out"
objcache=()
command -v ccache >/dev/null && objcache=(-MAKEFLAGS OBJCACHE=ccache)
verilator --cc --exe --build -j 2 --assert -Wno-fatal -Wno-UNUSEDSIGNAL --top-module noc_smoke_top \
  --Mdir "$out" -o noc_smoke -CFLAGS -O0 -CFLAGS "-I$root/cpp_models" "${objcache[@]}" \
  "$root/tests/noc/noc_smoke_top.sv" "$root/tb/network/noc_port.sv" "$root"/rtl/noc/*.sv "$root/rtl/rx_buffer.sv" "$root/rtl/credit_counter.sv" \
  "$root/rtl/credit_return.sv" "$root/rtl/pipeline.sv" "$root/tests/noc/noc_smoke.cpp" "$root/cpp_models/noc_model.cpp" > "$out/build.log" 2>&1 ||
  { grep -E '%Error|error:' "$out/build.log" | head -20 >&2; echo "noc_smoke: the build failed: $out/build.log" >&2; exit 3; }
"$out/noc_smoke"
