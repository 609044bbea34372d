#!/bin/bash
# BPF flow dissector (bpf/bpf_flow.c) vs the kernel's built-in C dissector on
# the same packets through the same kernel path, in one run (flowctl bench):
# a tc program run by BPF_PROG_TEST_RUN with `repeat` invalidates the skb hash
# and recomputes it, so each repetition dissects; our dissector is attached
# (netns bpf_link) vs not, alternating, in flowctl's private netns. The 16
# kernel selftest vectors are the packet mix. Also: a no-op BPF dissector (the
# hook's own cost) and bpf_flow alone through its test_run, export map on/off.
# Rows on stdout, commentary on stderr.
B=${B:-build}
if [ "$(id -u)" != 0 ]; then
	echo "bench_flow: needs root (BPF programs, netns attach); skipped" >&2
	echo "| flow dissector BPF vs C | skipped | | | needs root |"
	exit 0
fi
echo "kernel $(uname -r), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)," \
	"spectre_v2: $(cat /sys/devices/system/cpu/vulnerabilities/spectre_v2 2>/dev/null)," \
	"bpf_jit_enable $(cat /proc/sys/net/core/bpf_jit_enable)" >&2
exec "$B/flowctl" bench --repeat "${FLOW_BENCH_REPEAT:-100000}" --rounds "${FLOW_BENCH_ROUNDS:-5}"
