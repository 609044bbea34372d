#!/bin/bash
# btfgen vs pahole -J --btf_encode_detached, side by side in one run,
# alternating (pahole, btfgen) at -j1 and -j2, ROUNDS times (default 5,
# medians reported: single runs on a shared 2-CPU box move 10-40%), on:
#  (a) a large locally built input: libbtf + the programs + a generated set of
#      C units each pulling in many system headers, built with gcc -g;
#  (b) the Debian vmlinux with DWARF (linux-image-*-amd64-dbg, fetched with
#      apt-get download, only usr/lib/debug/boot/vmlinux-* kept, cached in
#      $BTF_BENCH_CACHE, default /var/cache/btf-bench).
# Rows: wall time, CPU time (user+sys: the other jobs sharing the 2 CPUs
# disturb it less than wall time) and peak RSS per -j, type counts; notes say whether the
# kernel accepts btfgen's output and whether -j1/-j2 bytes are identical.
set -u
B=${B:-build}
CACHE=${BTF_BENCH_CACHE:-/var/cache/btf-bench}
LOAD=$B/tests/btfgen/btfload SIG=$B/tests/btfgen/btfsig
row() { printf '| %s | %s | %s | %s | %s |\n' "$@"; }
note() { echo "bench_btfgen: $*" >&2; }

command -v pahole >/dev/null || { note "pahole not installed, skipped"; exit 0; }
command -v python3 >/dev/null || { note "python3 needed to measure peak RSS, skipped"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# measure OUT CMD...: writes "wall_seconds peak_rss_kb exit_status cpu_seconds" to OUT
measure() {
	local out=$1
	shift
	python3 - "$out" "$@" <<'EOF'
import os, sys, time
out, cmd = sys.argv[1], sys.argv[2:]
t0 = time.monotonic()
pid = os.fork()
if pid == 0:
    fd = os.open(os.devnull, os.O_WRONLY)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    try:
        os.execvp(cmd[0], cmd)
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
wall = time.monotonic() - t0
with open(out, "w") as f:
    f.write("%.3f %d %d %.3f\n" % (wall, ru.ru_maxrss, os.waitstatus_to_exitcode(status),
                                  ru.ru_utime + ru.ru_stime))
EOF
}

type_count() {
	bpftool btf dump file "$1" 2>/dev/null | grep -c '^\['
}

ratio() { python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); print('%.2f' % (a / b) if b else 'n/a')" "$1" "$2"; }

# median of the numbers given
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# ROUNDS rounds (default 5), each running pahole then btfgen at -j1 and -j2;
# the medians of each figure are reported
bench_input() {
	local label=$1 input=$2 j r pr gr t m c
	local -A ours_t ours_m peer_t peer_m ours_c peer_c
	for r in $(seq "${ROUNDS:-5}"); do
		for j in 1 2; do
			measure "$T/p$j" pahole -J --btf_gen_floats -j$j --btf_encode_detached="$T/pahole.$j.btf" "$input"
			measure "$T/g$j" "$B/btfgen" -j$j -o "$T/btfgen.$j.btf" "$input"
			read -r t m pr c <"$T/p$j"
			peer_t[$j]+=" $t" peer_m[$j]+=" $m" peer_c[$j]+=" $c"
			read -r t m gr c <"$T/g$j"
			ours_t[$j]+=" $t" ours_m[$j]+=" $m" ours_c[$j]+=" $c"
			if [ "$gr" != 0 ] || [ "$pr" != 0 ]; then
				note "$label -j$j: btfgen exit $gr, pahole exit $pr"
				return
			fi
		done
	done
	# shellcheck disable=SC2086
	for j in 1 2; do
		ours_t[$j]=$(median ${ours_t[$j]}) ours_m[$j]=$(median ${ours_m[$j]})
		ours_c[$j]=$(median ${ours_c[$j]}) peer_t[$j]=$(median ${peer_t[$j]})
		peer_m[$j]=$(median ${peer_m[$j]}) peer_c[$j]=$(median ${peer_c[$j]})
	done
	local same=differ kern=rejected
	cmp -s "$T/btfgen.1.btf" "$T/btfgen.2.btf" && same=identical
	[ -x "$LOAD" ] && [ "$(id -u)" -eq 0 ] && "$LOAD" "$T/btfgen.1.btf" >/dev/null 2>&1 && kern=accepted
	[ "$(id -u)" -eq 0 ] || kern="not tried (needs root)"
	local tc_o tc_p tc_p2
	tc_o=$(type_count "$T/btfgen.1.btf")
	tc_p=$(type_count "$T/pahole.1.btf")
	tc_p2=$(type_count "$T/pahole.2.btf")
	for j in 1 2; do
		row "btfgen $label -j$j wall s" "${ours_t[$j]}" "${peer_t[$j]}" "$(ratio "${ours_t[$j]}" "${peer_t[$j]}")" \
			"pahole 1.24 -J --btf_gen_floats -j$j; median of ${ROUNDS:-5} alternating runs"
		row "btfgen $label -j$j CPU s" "${ours_c[$j]}" "${peer_c[$j]}" "$(ratio "${ours_c[$j]}" "${peer_c[$j]}")" \
			"user+sys of the process (all threads)"
		row "btfgen $label -j$j peak RSS MB" "$((ours_m[$j] / 1024))" "$((peer_m[$j] / 1024))" \
			"$(ratio "${ours_m[$j]}" "${peer_m[$j]}")" "ru_maxrss of the process"
	done
	row "btfgen $label types" "$tc_o" "$tc_p" "$(ratio "$tc_o" "$tc_p")" \
		"btfgen -j1/-j2 bytes $same; pahole -j2 gives $tc_p2 types; kernel $kern btfgen's BTF"
	# parity of named types (kind, name, size) with pahole, differences listed
	[ -x "$SIG" ] || return
	"$SIG" --names "$T/btfgen.1.btf" | sort -u >"$T/o.names"
	"$SIG" --names "$T/pahole.1.btf" | sort -u >"$T/p.names"
	local only_o only_p
	only_o=$(comm -13 "$T/p.names" "$T/o.names" | wc -l)
	only_p=$(comm -23 "$T/p.names" "$T/o.names" | wc -l)
	row "btfgen $label named types" "$(wc -l <"$T/o.names")" "$(wc -l <"$T/p.names")" \
		"$(ratio "$(wc -l <"$T/o.names")" "$(wc -l <"$T/p.names")")" \
		"kind+name+size: $only_o only in btfgen, $only_p only in pahole (listed on stderr)"
	note "$label: named types only in pahole (first 25):"
	comm -23 "$T/p.names" "$T/o.names" | head -25 | sed 's/^/    /' >&2
	note "$label: named types only in btfgen (first 25):"
	comm -13 "$T/p.names" "$T/o.names" | head -25 | sed 's/^/    /' >&2
}

# (a) large local input --------------------------------------------------------
build_large() {
	local dir=$CACHE/large-v2 out=$CACHE/large-v2/large.so i
	[ -s "$out" ] && { echo "$out"; return; }
	mkdir -p "$dir" || return 1
	local hdrs="stdio.h stdlib.h string.h pthread.h signal.h time.h sys/socket.h sys/stat.h
		sys/mman.h sys/epoll.h sys/resource.h netinet/in.h netinet/ip.h netinet/tcp.h
		arpa/inet.h netdb.h dirent.h fcntl.h termios.h poll.h linux/bpf.h linux/if_link.h
		linux/netlink.h linux/rtnetlink.h linux/perf_event.h linux/btf.h elf.h gelf.h
		elfutils/libdw.h zlib.h"
	for i in $(seq 1 400); do
		{
			for h in $hdrs; do echo "#include <$h>"; done
			echo "struct unit_$i { int id; struct sockaddr_in a; struct stat st; union bpf_attr *attr; };"
			echo "int unit_fn_$i(struct unit_$i *u, int x) { return u->id + x; }"
			echo "struct unit_$i unit_var_$i;"
		} >"$dir/u$i.c"
	done
	gcc -g -O2 -shared -fPIC -fno-eliminate-unused-debug-types -D_GNU_SOURCE -Ilibbtf/include -Ilibbtf \
		-o "$out.tmp" "$dir"/u*.c libbtf/*.c btfdump/*.c -w \
		-lbpf -ldw -lelf -lcjson -lz -lpthread >&2 && mv "$out.tmp" "$out" && echo "$out"
}
large=$(build_large) && [ -s "$large" ] && bench_input "large .so (gcc -g, $(readelf --debug-dump=info "$large" 2>/dev/null | grep -c 'DW_TAG_compile_unit') CUs)" "$large" ||
	note "could not build the large input"

# (b) Debian vmlinux with DWARF -----------------------------------------------
fetch_vmlinux() {
	local v
	v=$(ls "$CACHE"/vmlinux-* 2>/dev/null | head -1)
	[ -n "$v" ] && { echo "$v"; return; }
	command -v apt-get >/dev/null || return 1
	local pkg
	pkg=$(apt-cache depends linux-image-amd64-dbg 2>/dev/null | awk '/Depends:/ { print $2; exit }')
	[ -n "$pkg" ] || return 1
	mkdir -p "$CACHE" && cd "$CACHE" || return 1
	note "downloading $pkg (~900 MB) into $CACHE"
	apt-get download "$pkg" >&2 || { cd - >/dev/null; return 1; }
	dpkg-deb --fsys-tarfile "$pkg"_*.deb | tar -x --wildcards './usr/lib/debug/boot/vmlinux-*' &&
		mv usr/lib/debug/boot/vmlinux-* . && rm -rf usr "$pkg"_*.deb
	cd - >/dev/null
	v=$(ls "$CACHE"/vmlinux-* 2>/dev/null | head -1)
	[ -n "$v" ] && echo "$v"
}
vmlinux=$(fetch_vmlinux) && [ -n "$vmlinux" ] && bench_input "vmlinux $(basename "$vmlinux" | sed 's/vmlinux-//')" "$vmlinux" ||
	note "no vmlinux with DWARF (download impossible): vmlinux rows skipped"
exit 0
