#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for trying the sharded regression
# (scripts/slurm/regress.sh) and for its test (tests/slurm/test_slurm.sh); see docs/slurm.md.
#   scripts/slurm/local-cluster.sh start  [--dir DIR]   munged, slurmctld and slurmd; waits for idle
#   scripts/slurm/local-cluster.sh status [--dir DIR]   the daemons, sinfo, the SLURM_CONF to export
#   scripts/slurm/local-cluster.sh stop   [--dir DIR]   kills what start launched (by pid files)
#   scripts/slurm/local-cluster.sh env    [--dir DIR]   prints the export lines (eval "$(... env)")
# DIR (default /tmp/creditloop-slurm) holds everything: slurm.conf, the munge key and socket, the
# controller's state, slurmd's spool, the logs and the pid files. Nothing under /etc or /run is
# read or written: the clients find the cluster through SLURM_CONF=DIR/etc/slurm.conf, and Slurm
# finds munged through that file's AuthInfo=socket=... . The daemons listen on 127.0.0.1 only.
# Ports: CREDITLOOP_SLURM_PORT (default 16817) for slurmctld, the next one for slurmd, so that a
# real Slurm on the default ports 6817/6818 is left alone.
set -euo pipefail

me="local-cluster.sh"
usage="usage: scripts/slurm/local-cluster.sh start|stop|status|env [--dir DIR]"
die() { echo "$me: $*" >&2; exit 2; }

action="${1:-}"
[ $# -gt 0 ] && shift
dir=/tmp/creditloop-slurm
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) [ $# -ge 2 ] || die "--dir needs a directory; $usage"; dir="$2"; shift 2 ;;
    --dir=*) dir="${1#--dir=}"; shift ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
    *) die "unknown option '$1'; $usage" ;;
  esac
done
case "$action" in
  start|stop|status|env) ;;
  -h|--help|help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
  "") die "no action given; $usage" ;;
  *) die "unknown action '$action'; $usage" ;;
esac
case "$dir" in /*) ;; *) dir="$PWD/$dir" ;; esac   # the daemons chdir; relative paths would break

conf="$dir/etc/slurm.conf"
ctld_port="${CREDITLOOP_SLURM_PORT:-16817}"
slurmd_port=$((ctld_port + 1))
export SLURM_CONF="$conf"

# The daemons' binaries. Debian's slurm-wlm brings slurmctld, slurmd and the clients; munge the
# authentication daemon. Say how to get them rather than failing on a missing command later.
need_packages() {
  local missing=() cmd
  for cmd in munged mungekey slurmctld slurmd sinfo sbatch squeue scontrol; do
    command -v "$cmd" >/dev/null 2>&1 || PATH="$PATH:/usr/sbin:/sbin" command -v "$cmd" >/dev/null 2>&1 || missing+=("$cmd")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -eq 0 ] && [ "${CREDITLOOP_SLURM_NO_INSTALL:-0}" != 1 ]; then
    echo "$me: ${missing[*]} missing: installing slurm-wlm and munge"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge
  else
    echo "$me: ${missing[*]} not installed; run as root: apt-get update && apt-get install -y slurm-wlm munge" >&2
    exit 3
  fi
}
PATH="$PATH:/usr/sbin:/sbin"   # slurmctld, slurmd and munged live in /usr/sbin, off a user's PATH

# A pid file names a process of ours only if that pid is alive and runs the expected program:
# a stale file after a reboot must not make stop kill whatever reuses the number.
pid_of() {   # pid_of NAME PIDFILE -> prints the pid, or fails
  local name="$1" file="$2" pid
  [ -s "$file" ] || return 1
  pid="$(tr -dc '0-9' < "$file")"
  [ -n "$pid" ] && [ -r "/proc/$pid/comm" ] || return 1
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$name" ] || return 1
  echo "$pid"
}

log_tail() {   # the last lines of every log, for an error that needs them
  local f
  for f in "$dir"/log/*.log; do
    [ -s "$f" ] || continue
    echo "---- $f (last 15 lines)" >&2
    tail -n 15 "$f" >&2
  done
}

# The node's shape comes from slurmd -C, so the node registers with exactly what it has (a
# RealMemory above the real one drains the node as "Low RealMemory").
node_line() {
  local hw cpus sockets cores threads mem
  hw="$(slurmd -C 2>/dev/null | head -n 1)"
  cpus="$(sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' <<<"$hw")"
  sockets="$(sed -n 's/.*SocketsPerBoard=\([0-9]*\).*/\1/p' <<<"$hw")"
  cores="$(sed -n 's/.*CoresPerSocket=\([0-9]*\).*/\1/p' <<<"$hw")"
  threads="$(sed -n 's/.*ThreadsPerCore=\([0-9]*\).*/\1/p' <<<"$hw")"
  mem="$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<<"$hw")"
  if [ -z "$cpus" ] || [ -z "$mem" ]; then   # slurmd -C said nothing useful: nproc and /proc/meminfo
    cpus="$(nproc)"; sockets=1; cores="$cpus"; threads=1
    mem=$(( $(sed -n 's/^MemTotal: *\([0-9]*\) kB/\1/p' /proc/meminfo) / 1024 ))
  fi
  echo "NodeName=$node NodeAddr=127.0.0.1 NodeHostname=$node CPUs=$cpus SocketsPerBoard=$sockets CoresPerSocket=$cores ThreadsPerCore=$threads RealMemory=$mem State=UNKNOWN"
}

write_conf() {
  local user="$1"
  cat > "$conf" <<EOF
# Written by scripts/slurm/local-cluster.sh: a single-node cluster on 127.0.0.1 for creditloop's
# sharded regression. Every path is under $dir.
ClusterName=creditloop
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
# Bind to 127.0.0.1 (what the node's name resolves to here), not to every address.
CommunicationParameters=NoCtldInAddrAny,NoInAddrAny
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket.2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$dir/etc/plugstack.conf
# The simplest plugins: no cgroups, no accounting, processes tracked through /proc.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
# Start the next array task as soon as one ends: the default 3 s batch delay added a second to
# every wave of shards here.
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
# A restarted slurmd comes back into service by itself; finished jobs stay visible for 5 minutes.
ReturnToService=2
MinJobAge=300
SlurmdTimeout=60
InactiveLimit=0
KillWait=10
MailProg=/bin/true
$(node_line)
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
  : > "$dir/etc/plugstack.conf"   # else slurmd reads /etc/slurm/plugstack.conf
}

start_munged() {
  local key="$dir/munge/munge.key"
  if pid_of munged "$dir/munge/munged.pid" >/dev/null; then
    echo "$me: munged already running"
    return 0
  fi
  # A key of our own: the system's /etc/munge/munge.key is munge's user's, and not ours to read.
  [ -s "$key" ] || mungekey --create --keyfile="$key" 2>/dev/null \
    || dd if=/dev/urandom of="$key" bs=1 count=1024 status=none
  chmod 0400 "$key"
  rm -f "$dir/munge/munge.socket.2" "$dir/munge/munge.socket.2.lock"
  # --force: munged refuses to run as root without it (Debian runs it as the munge user, from
  # systemd, which we do not have or want here).
  munged --force --key-file="$key" --socket="$dir/munge/munge.socket.2" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/log/munged.log" \
    --seed-file="$dir/munge/munged.seed" \
    || { echo "$me: munged did not start; see $dir/log/munged.log" >&2; log_tail; do_stop >&2; exit 3; }
  # munge -n | unmunge is the round trip Slurm's auth plugin does on every message.
  local i
  for i in $(seq 1 50); do
    if munge -n --socket="$dir/munge/munge.socket.2" 2>/dev/null \
        | unmunge --socket="$dir/munge/munge.socket.2" >/dev/null 2>&1; then
      return 0
    fi
    sleep 0.1
  done
  echo "$me: munged started but its socket $dir/munge/munge.socket.2 does not answer" >&2
  log_tail; do_stop >&2; exit 3
}

do_start() {
  need_packages
  local user
  user="$(id -un)"
  # The node's name: the short hostname, which is what slurmd looks itself up by; the cluster
  # still uses 127.0.0.1 for every address (NodeAddr and SlurmctldHost's address).
  node="$(hostname -s 2>/dev/null || hostname)"
  local ctld_pid slurmd_pid
  if ctld_pid="$(pid_of slurmctld "$dir/run/slurmctld.pid")" \
     && slurmd_pid="$(pid_of slurmd "$dir/run/slurmd.pid")"; then
    echo "$me: already running in $dir (slurmctld $ctld_pid, slurmd $slurmd_pid)"
    echo "export SLURM_CONF=$conf"
    return 0
  fi
  # A port taken by someone else would show up only as a timeout below: say it now (unless a
  # daemon of ours, half of an earlier start, is what holds it).
  if ! pid_of slurmctld "$dir/run/slurmctld.pid" >/dev/null && ! pid_of slurmd "$dir/run/slurmd.pid" >/dev/null \
     && command -v ss >/dev/null 2>&1 && ss -ltn 2>/dev/null | grep -qE "[:.]($ctld_port|$slurmd_port)[[:space:]]"; then
    echo "$me: port $ctld_port or $slurmd_port is in use; stop what uses it or set CREDITLOOP_SLURM_PORT to another base port" >&2
    exit 3
  fi

  # munged wants its socket's directory searchable by everyone and writable by no one else;
  # the key inside stays 0400.
  mkdir -p "$dir" "$dir/etc" "$dir/munge" "$dir/state" "$dir/spool/$node" "$dir/log" "$dir/run"
  chmod 0755 "$dir" "$dir/munge"

  write_conf "$user"
  echo "$me: starting munged, slurmctld and slurmd in $dir (node $node, 127.0.0.1:$ctld_port)"
  start_munged
  # -i: ignore state left by an earlier run in this directory (old jobs), start clean.
  pid_of slurmctld "$dir/run/slurmctld.pid" >/dev/null \
    || slurmctld -i -f "$conf" \
    || { echo "$me: slurmctld did not start; see $dir/log/slurmctld.log" >&2; log_tail; do_stop >&2; exit 3; }
  pid_of slurmd "$dir/run/slurmd.pid" >/dev/null \
    || slurmd -f "$conf" -N "$node" \
    || { echo "$me: slurmd did not start; see $dir/log/slurmd.log" >&2; log_tail; do_stop >&2; exit 3; }

  # Ready when the node reports idle: the controller is up, slurmd registered, and it has its CPUs.
  local timeout="${CREDITLOOP_SLURM_START_TIMEOUT:-60}" waited=0 state=""
  while :; do
    state="$(sinfo -h -n "$node" -o '%t' 2>/dev/null | head -n 1 || true)"
    [ "$state" = idle ] && break
    if [ "$waited" -ge $((timeout * 10)) ]; then
      echo "$me: the node $node is not idle after ${timeout}s (sinfo says '${state:-no answer}'); see the logs in $dir/log" >&2
      log_tail
      do_stop >&2   # a half-started cluster would only hold the ports
      exit 3
    fi
    sleep 0.1; waited=$((waited + 1))
  done
  echo "$me: ready after $((waited / 10)).$((waited % 10))s: $(sinfo -h -o '%P %D node, %c CPUs, %m MB, %t')"
  echo "export SLURM_CONF=$conf"
}

do_stop() {
  local name file pid i pids=() names=()
  # SIGTERM to all three at once: each takes 1 to 2 s to exit, and one after the other made a
  # test's teardown 5 s long. Nothing is left to authenticate once both Slurm daemons go.
  for name in slurmd slurmctld munged; do
    case "$name" in
      munged) file="$dir/munge/munged.pid" ;;
      *) file="$dir/run/$name.pid" ;;
    esac
    if pid="$(pid_of "$name" "$file")"; then
      kill -TERM "$pid" 2>/dev/null || true
      pids+=("$pid"); names+=("$name")
    fi
    rm -f "$file"   # only our pid file; the logs and state stay for reading
  done
  if [ ${#pids[@]} -eq 0 ]; then
    echo "$me: nothing of ours running in $dir"
    return 0
  fi
  for i in "${!pids[@]}"; do
    pid="${pids[$i]}"
    for _ in $(seq 1 100); do
      [ -d "/proc/$pid" ] || break
      sleep 0.1
    done
    if [ -d "/proc/$pid" ]; then
      echo "$me: ${names[$i]} ($pid) ignored SIGTERM for 10 s; killing it"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    echo "$me: stopped ${names[$i]} ($pid)"
  done
}

do_status() {
  local name file pid rc=0
  for name in munged slurmctld slurmd; do
    case "$name" in
      munged) file="$dir/munge/munged.pid" ;;
      *) file="$dir/run/$name.pid" ;;
    esac
    if pid="$(pid_of "$name" "$file")"; then
      echo "$me: $name running ($pid)"
    else
      echo "$me: $name not running"; rc=1
    fi
  done
  if [ "$rc" -eq 0 ]; then
    sinfo -N -h -o '%N %P %t %c %m' | while read -r n p t c m; do
      echo "$me: node $n, partition $p, $t, $c CPUs, $m MB"
    done
    echo "export SLURM_CONF=$conf"
  fi
  return "$rc"
}

case "$action" in
  start) do_start ;;
  stop) do_stop ;;
  status) do_status ;;
  env) echo "export SLURM_CONF=$conf" ;;
esac
