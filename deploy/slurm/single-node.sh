#!/bin/bash
# A one-machine Slurm cluster from Debian's packages, to try deploy/slurm on one machine:
# munge, slurmctld and slurmd on this host, one node with this machine's CPUs and memory (as
# `slurmd -C` reports them), one partition. Run as root, on Debian 12 (slurm-wlm 22.05):
#
#   bash deploy/slurm/single-node.sh
#   SHARDS=3 CPUS_PER_TASK=1 RENDERER=cpu deploy/slurm/submit.sh
#
# Idempotent: installs what is missing, rewrites /etc/slurm/slurm.conf, and restarts the daemons
# (with systemd where it runs, else directly). Nothing here needs cgroups (proctrack/linuxproc,
# task/none), so it works in a container too. Finished jobs are logged to
# /var/log/slurm/jobcomp.log (no slurmdbd, so `sacct` has no accounting; `scontrol show job ID`
# shows a job for MinJobAge seconds after it ends, and the log keeps every job's state and times).
set -euo pipefail

me=single-node.sh
if [ "$(id -u)" -ne 0 ]; then
  echo "$me: run as root" >&2
  exit 77
fi

missing=()
for p in slurmctld slurmd slurm-client munge; do
  [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)" = installed ] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "$me: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

host=$(hostname -s)
# "NodeName=… CPUs=… Boards=… SocketsPerBoard=… CoresPerSocket=… ThreadsPerCore=… RealMemory=…"
node=$(slurmd -C | head -n 1)
case $node in
  NodeName=*) ;;
  *)
    echo "$me: slurmd -C printed no node line: $node" >&2
    exit 70
    ;;
esac

mkdir -p /etc/slurm /var/lib/slurm/slurmctld /var/lib/slurm/slurmd /var/log/slurm /run/munge
chown slurm:slurm /var/lib/slurm/slurmctld /var/log/slurm
chown munge:munge /run/munge

if [ ! -s /etc/munge/munge.key ]; then
  mungekey --create --keyfile=/etc/munge/munge.key
fi
chown munge:munge /etc/munge/munge.key
chmod 0400 /etc/munge/munge.key

cat >/etc/slurm/slurm.conf <<EOF
# Written by deploy/slurm/single-node.sh: one node, this machine.
ClusterName=layerkit
SlurmctldHost=$host(127.0.0.1)
SlurmUser=slurm
AuthType=auth/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
StateSaveLocation=/var/lib/slurm/slurmctld
SlurmdSpoolDir=/var/lib/slurm/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
JobCompType=jobcomp/filetxt
JobCompLoc=/var/log/slurm/jobcomp.log
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
chmod 0644 /etc/slurm/slurm.conf

# Stops the daemon whose pid file is $1, if it runs.
stop() {
  local pid
  if [ -s "$1" ] && pid=$(cat "$1") && kill -0 "$pid" 2>/dev/null; then
    kill "$pid"
    for _ in $(seq 50); do
      kill -0 "$pid" 2>/dev/null || return 0
      sleep 0.2
    done
    echo "$me: pid $pid (from $1) did not stop" >&2
    return 1
  fi
}

if [ -d /run/systemd/system ]; then
  systemctl enable munge slurmctld slurmd >/dev/null 2>&1 || true
  systemctl restart munge
  systemctl restart slurmctld
  systemctl restart slurmd
else
  stop /run/slurmd.pid
  stop /run/slurmctld.pid
  stop /run/munge/munged.pid
  runuser -u munge -- /usr/sbin/munged
  /usr/sbin/slurmctld
  /usr/sbin/slurmd
fi

# Wait for the node to register; resume it if an earlier run left it down or drained.
for _ in $(seq 60); do
  state=$(sinfo -h -n "$host" -o %t 2>/dev/null || true)
  case $state in
    idle* | mix* | alloc*) break ;;
    down* | drain* | fail*) scontrol update NodeName="$host" State=RESUME 2>/dev/null || true ;;
  esac
  sleep 1
done
sinfo -N -o '%N %P %c %m %t'
case ${state:-} in
  idle* | mix* | alloc*) ;;
  *)
    echo "$me: node $host is '${state:-unknown}', not up: see /var/log/slurm/slurmctld.log and slurmd.log" >&2
    exit 70
    ;;
esac
