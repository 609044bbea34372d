#!/bin/bash
# Name lookups in sorted BTF (issue 32): the running kernel's vmlinux BTF
# as it is (unsorted on 6.18: a linear scan per lookup) and sorted by
# libbtf's own lbtf_builder_sort_by_name (what btfgen --sort-types writes;
# lookups then binary-search, as libbpf 1.8's): every 100th named type
# looked up by name and kind in both, in process (bench/lookup_bench.c),
# thread CPU time per round. The answers are checked to name the type asked for.
B=${B:-build}
V=${BENCH_VMLINUX_BTF:-/sys/kernel/btf/vmlinux}
[ -r "$V" ] || { echo "bench_lookup: no $V" >&2; exit 1; }
exec "$B/bench/lookup_bench" "$V" "${ROUNDS:-5}"
