#!/usr/bin/env bash
# The installed tool, checked from a folder outside any checkout:
#   1. cmake --install BUILD --prefix P: P/bin/creditloop checks the installed example counter
#      (share/creditloop/examples/own_rtl/vr_counter, through its map) and passes; the same map with
#      its one-line leak (the example's drop mutant) fails with exit 1 naming conservation. The
#      plugins are built in the user's cache folder (XDG_CACHE_HOME), never in the build tree.
#   2. cpack -G DEB: the package lists the tools a plugin build needs, installs with dpkg (as root,
#      where creditloop is not installed already; otherwise it is unpacked with dpkg-deb) and its
#      creditloop passes the same check.
# Usage: test_install.sh BUILD_DIR
set -uo pipefail
build=$(cd "${1:?usage: test_install.sh BUILD_DIR}" && pwd)
tmp=$(mktemp -d /tmp/creditloop-install.XXXXXX)
installed_deb=0
cleanup() {
  [ "$installed_deb" = 1 ] && dpkg -P creditloop > /dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# check PROGRAM SHARE CACHE: the example counter through its map, from a folder of the user's.
check() {
  local program=$1 share=$2 cache=$3 work
  work=$(mktemp -d "$tmp/work.XXXX")
  cp -r "$share/examples/own_rtl/vr_counter" "$share/examples/own_rtl/include" "$work/" || { fail "no examples in $share"; return; }
  (cd "$work" && env -u CREDITLOOP_ROOT -u CREDITLOOP_BUILD XDG_CACHE_HOME="$cache" \
      "$program" run --counter vr_counter/vr_counter.map.json --L 4 --B 6 --K 2 --flush 0.1 --cycles 3000) \
      > "$work/pass.log" 2>&1 || { fail "$program: the correct counter did not pass (exit $?)"; cat "$work/pass.log"; }
  grep -q '^PASS' "$work/pass.log" || { fail "$program: no PASS line"; cat "$work/pass.log"; }
  (cd "$work" && env -u CREDITLOOP_ROOT -u CREDITLOOP_BUILD XDG_CACHE_HOME="$cache" \
      "$program" run --counter vr_counter/vr_counter.map.json --mutant vr_counter/mutants/vr_credit_counter_drop.mutant \
      --L 4 --B 6 --K 2 --flush 0.1 --cycles 3000) > "$work/leak.log" 2>&1
  local rc=$?
  [ $rc -eq 1 ] || { fail "$program: the leaking counter must exit 1, not $rc"; cat "$work/leak.log"; }
  grep -q 'conservation' "$work/leak.log" || { fail "$program: the leak is not named as a conservation failure"; cat "$work/leak.log"; }
  [ -n "$(find "$cache/creditloop/duts" -name '*.so' 2>/dev/null)" ] || fail "$program: no plugin in the cache folder $cache/creditloop"
  # A bank this program built in the build tree would name its sources (the installed share, or
  # blocks under the user's cache) in its manifest. Other tests build banks there at the same
  # time (ctest -j), so the check is of what the banks hold, not of how many there are.
  local stray
  stray=$(grep -lF -e "$share/" -e "$cache/" "$build"/duts/*/manifest.txt 2>/dev/null | head -1)
  [ -z "$stray" ] || fail "$program: wrote into the build tree's cache ($stray names its sources)"
  [ -s "$(find "$work/waves" -name '*.vcd' | head -1)" ] || fail "$program: no waves of the leak in the user's folder"
}

echo "== cmake --install $build --prefix $tmp/prefix"
cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; exit 1; }
prefix_bin=$tmp/prefix/bin/creditloop
[ -x "$prefix_bin" ] || fail "no bin/creditloop under the prefix"
check "$prefix_bin" "$tmp/prefix/share/creditloop" "$tmp/cache-prefix"

echo "== cpack -G DEB"
if ! command -v dpkg-deb > /dev/null; then
  echo "dpkg-deb not found: the .deb is not checked on this machine"
  exit $((failures > 0 ? 1 : 77))
fi
(cd "$build" && cpack -G DEB -B "$tmp/pkg") > "$tmp/cpack.log" 2>&1 || { cat "$tmp/cpack.log"; exit 1; }
deb=$(ls "$tmp"/pkg/creditloop_*.deb 2>/dev/null | head -1)
[ -f "$deb" ] || { fail "cpack wrote no creditloop_*.deb"; cat "$tmp/cpack.log"; exit 1; }
depends=$(dpkg-deb -f "$deb" Depends)
for tool in verilator cmake g++; do
  echo "$depends" | grep -q "$tool" || fail "the package does not depend on $tool: $depends"
done
if [ "$(id -u)" = 0 ] && ! dpkg-query -W -f='${Status}' creditloop 2>/dev/null | grep -q 'ok installed'; then
  dpkg -i "$deb" > "$tmp/dpkg.log" 2>&1 || { fail "dpkg -i $deb"; cat "$tmp/dpkg.log"; }
  installed_deb=1
  check /usr/bin/creditloop /usr/share/creditloop "$tmp/cache-deb"
else
  echo "not root, or creditloop already installed: unpacking the .deb instead of installing it"
  dpkg-deb -x "$deb" "$tmp/deb"
  check "$tmp/deb/usr/bin/creditloop" "$tmp/deb/usr/share/creditloop" "$tmp/cache-deb"
fi
[ $failures -eq 0 ] && echo "install: every check passed"
exit $((failures > 0))
