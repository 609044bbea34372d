#!/bin/bash
# btfcheck against the kernel's BPF_BTF_LOAD and libbpf, timed as users run
# them: fresh processes, cold buffers, alternating, RUNS (21) rounds,
# medians of the paired ratios, CPU time (user+sys of the child, the steadier
# figure on a shared machine) beside wall time, the load average beside.
#  1. The `btfcheck FILE` command on /sys/kernel/btf/vmlinux (level 0, and
#     --log-level 1 with the log to /dev/null) vs a command that reads the
#     same bytes and BPF_BTF_LOAD's them (bench/btf_load.c, level 0 and 1),
#     and vs the syscall's own time. The floor row: bench/btf_walk.c, linked
#     like btfcheck, maps the file, walks every type once and reads every
#     string once, nothing more: btfcheck is also given as a multiple of it.
#  2. Object mode vs libbpf's open + BTF load (bench/libbpf_btf_load.c):
#     libbpf 1.8 (scripts/build-libbpf.sh's cache, linked statically into
#     the peer) and Debian's libbpf, as table rows (verify_object_pairs.py):
#     one command per object and its floors (bench/hello.c linked like
#     btfcheck and with static glibc, bench/exit_only.c: a process that
#     only exits), the corpus in one command, and the gate: every BPF
#     object the build and its tests make, in one command each.
#  3. The in-process warm loop (bench/verify_bench.c) on the kernel's BTF
#     and on the largest BTF btfgen produces here (a cached DWARF vmlinux).
B=${B:-build}
CACHE=${BTF_BENCH_CACHE:-/var/cache/btf-bench}
RUNS=${RUNS:-21}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if [ "$(id -u)" != 0 ]; then
	echo "bench_verify: needs root (BPF_BTF_LOAD)" >&2
	exit 1
fi
python3 bench/verify_vmlinux_pairs.py "$B" "$RUNS" /sys/kernel/btf/vmlinux
# libbpf 1.8 from scripts/build-libbpf.sh's cache (the first whose libbpf.a
# has btf__new_empty_opts, new in 1.8): the peer of object mode, built here
peers=()
for d in "$CACHE"/libbpf-*/; do
	if nm "$d/lib/libbpf.a" 2>/dev/null | grep -q ' T btf__new_empty_opts$' &&
		gcc -O2 -I"$d/include" -o "$T/libbpf18_btf_load" bench/libbpf_btf_load.c \
			"$d/lib/libbpf.a" -lelf -lz 2>"$T/cc.log"; then
		peers+=("libbpf 1.8=$T/libbpf18_btf_load")
		break
	fi
done
[ ${#peers[@]} -gt 0 ] ||
	echo "bench_verify: no libbpf 1.8 in $CACHE (scripts/build-libbpf.sh LIBBPF_GIT master): Debian's libbpf only" >&2
peers+=("Debian's libbpf $(dpkg-query -W -f '${Version}' libbpf1 2>/dev/null || echo '(version unknown)')=$B/bench/libbpf_btf_load")
# object mode vs each peer, fresh processes, alternating, as table rows: one
# command per corpus object and its floors (a program doing nothing linked
# like btfcheck, the same with static glibc, a process that only exits),
# the corpus in one command, and the gate: every BPF object (ELF machine
# BPF) that the build and its tests leave under $B, in one command each
# (not those of another build inside it, such as build/clang: a directory
# with its own btfcheck)
gate=() prune=()
for d in "$B"/*/; do
	[ -x "$d/btfcheck" ] && prune+=(-path "${d%/}" -prune -o)
done
while IFS= read -r o; do
	[ "$(od -An -tu2 -j18 -N2 "$o" 2>/dev/null | tr -d ' ')" = 247 ] && gate+=("$o")
done < <(find "$B" -path "$B/obj" -prune -o "${prune[@]}" -name '*.o' -type f -print | sort)
python3 bench/verify_object_pairs.py "$B" "$RUNS" "${peers[@]}" -- "$B"/corpus/*.bpf.o "$B/corpus/link.o" -- "${gate[@]}"
files=(/sys/kernel/btf/vmlinux)
dbg=$(find "$CACHE" -maxdepth 1 -name 'vmlinux-*' -printf '%s %p\n' 2>/dev/null | sort -rn | head -n 1 | cut -d' ' -f2-)
if [ -n "$dbg" ] && [ -x "$B/btfgen" ] && "$B/btfgen" -o "$T/btfgen-vmlinux.btf" "$dbg" >/dev/null 2>&1; then
	files+=("$T/btfgen-vmlinux.btf")
else
	echo "bench_verify: no btfgen output of a DWARF vmlinux (cache $CACHE), kernel's own BTF only" >&2
fi
echo "in-process warm loop:"
exec "$B/bench/verify_bench" -n 21 "${files[@]}"
