#!/bin/bash
# BPF flow dissector (bpf/bpf_flow.c) vs the kernel's built-in C dissector.
#  1. flowctl bench: the skb-hash path.  A tc program run by BPF_PROG_TEST_RUN
#     with `repeat` invalidates the skb hash and recomputes it, so each
#     repetition dissects, in flowctl's private netns: C, bpf_flow as attached
#     by default (recording off), with --record, with --record=1, a no-op BPF
#     dissector, the zero-parse floor (per vector a program that only stores
#     bpf_flow's keys for it: the least any BPF dissector giving those keys
#     costs here), C again (control), rotating; the 16 kernel selftest vectors.
#  2. flowctl bench-e2e: UDP over a veth pair between two namespaces of this
#     run, RPS on the receiver so every packet is hashed there; CPU time per
#     packet with C, bpf_flow default, --record, no-op.
# Default configuration first in each.  Rows on stdout, commentary on stderr.
# The machine is shared: figures move by several percent between runs.
B=${B:-build}
if [ "$(id -u)" != 0 ]; then
	echo "bench_flow: needs root (BPF programs, netns attach); skipped" >&2
	echo "| flow dissector BPF vs C | skipped | | | needs root |"
	exit 0
fi
set -eo pipefail
echo "kernel $(uname -r), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)," \
	"spectre_v2: $(cat /sys/devices/system/cpu/vulnerabilities/spectre_v2 2>/dev/null)," \
	"bpf_jit_enable $(cat /proc/sys/net/core/bpf_jit_enable)" >&2
"$B/flowctl" bench --repeat "${FLOW_BENCH_REPEAT:-100000}" --rounds "${FLOW_BENCH_ROUNDS:-7}"

# End to end: namespaces and veth of this run only, removed on exit.
tx=flowe2e-$$-tx rx=flowe2e-$$-rx
trap 'ip netns del "$tx" 2>/dev/null; ip netns del "$rx" 2>/dev/null' EXIT
ip netns add "$tx"
ip netns add "$rx"
ip link add fe2e0 netns "$tx" type veth peer name fe2e1 netns "$rx"
ip -n "$tx" addr add 10.201.0.1/24 dev fe2e0
ip -n "$rx" addr add 10.201.0.2/24 dev fe2e1
ip -n "$tx" link set fe2e0 up
ip -n "$rx" link set fe2e1 up
cpu=$(($(nproc) - 1))
# RPS on the receiving veth, steering to the CPU flowctl runs on
ip netns exec "$rx" sh -c "printf %x $((1 << cpu)) >/sys/class/net/fe2e1/queues/rx-0/rps_cpus"
"$B/flowctl" bench-e2e --tx "$tx" --rx "$rx" --to 10.201.0.2 --cpu "$cpu" \
	--packets "${FLOW_E2E_PACKETS:-50000}" --rounds "${FLOW_E2E_ROUNDS:-9}"
