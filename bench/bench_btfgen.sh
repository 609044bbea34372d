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
# The floor (d): one pass over the vmlinux's .debug_info with nothing but the
# DIE walk (bench/dwarf_floor: this project's DWARF reader, and libdw's walk
# as a second row), ROUNDS fresh processes; btfgen's vmlinux figures of (b)
# and (c) as multiples of it.
set -u
B=${B:-build}
CACHE=${BTF_BENCH_CACHE:-/var/cache/btf-bench}
. bench/lib.sh # fetch_vmlinux, fetch_modules
LOAD=$B/tests/btfgen/btfload SIG=$B/tests/btfgen/btfsig
row() { printf '| %s | %s | %s | %s | %s |\n' "$@"; }
# btfgen's vmlinux medians for the floor rows: "what -jN" -> "cpu wall"
declare -A ENC
note() { echo "bench_btfgen: $*" >&2; }

command -v pahole >/dev/null || { note "pahole not installed, skipped"; exit 0; }
command -v python3 >/dev/null || { note "python3 needed to measure peak RSS, skipped"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# measure OUT CMD...: writes "wall_seconds peak_rss_kb exit_status cpu_seconds" to OUT
# The command is started with posix_spawn (a vfork), not by forking the
# interpreter: a fork copies python's page tables and faults its pages back,
# ~7 ms a command on this VM that neither peer's run contains (the same for
# both, but it is no part of what is timed).
measure() {
	local out=$1
	shift
	python3 bench/measure.py "$out" "$@"
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
	[ "$input" = "${vmlinux:-}" ] && for j in 1 2; do
		ENC["btfgen (default) -j$j"]="${ours_c[$j]} ${ours_t[$j]}"
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
# (BENCH_BTFGEN=kernel: only the kernel-build rows, (c), (d) and (e))
if [ "${BENCH_BTFGEN:-all}" = all ]; then
	large=$(build_large) && [ -s "$large" ] && bench_input "large .so (gcc -g, $(readelf --debug-dump=info "$large" 2>/dev/null | grep -c 'DW_TAG_compile_unit') CUs)" "$large" ||
		note "could not build the large input"
fi

# (b) Debian vmlinux with DWARF -----------------------------------------------
vmlinux=$(fetch_vmlinux) && [ -n "$vmlinux" ] || { vmlinux=; note "no vmlinux with DWARF (download impossible): vmlinux rows skipped"; }
[ -n "$vmlinux" ] && [ "${BENCH_BTFGEN:-all}" = all ] &&
	bench_input "vmlinux $(basename "$vmlinux" | sed 's/vmlinux-//')" "$vmlinux"

# (c) as a kernel build runs it ------------------------------------------------
# btfgen-pahole with kernel 6.18's flags against pahole 1.24 (with the flags
# the 6.1 kernel gives it) and pahole v1.31 (6.18's flags; when
# scripts/build-pahole.sh has built it), at -j1 and -j2: per round each
# encoder once, fresh processes, btfgen first in odd rounds and last in even
# ones; the rows give the medians and the ratio is the median of the rounds'
# ratios (btfgen / peer), the notes their range (this kind of machine runs
# the same command 20-35% slower from one minute to the next: the range
# shows how far one pair may stray from the median).
K618=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs
# (and --btf_features=attributes: pahole >= 1.30 gets it from 6.18's Makefile.btf)
P31=${BTF_BENCH_CACHE:-/var/cache/btf-bench}/pahole-v1.31/bin/pahole
# peer_cmd NAME J IN OUT: the command line of that peer
peer_cmd() {
	case $1 in
	btfgen) echo "$B/btfgen-pahole -J -j$2 --btf_features=$K618 --btf_features=attributes --lang_exclude=rust --btf_encode_detached=$4 $3" ;;
	p124) echo "pahole -J -j$2 --btf_gen_floats --lang_exclude=rust --btf_encode_detached=$4 $3" ;;
	p131) echo "$P31 -J -j$2 --btf_features=$K618 --btf_features=attributes --lang_exclude=rust --btf_encode_detached=$4 $3" ;;
	esac
}
# (KROUNDS rounds, ROUNDS when only that is set, else 9 rather than the
# other sections' 5: one pair's ratio strays from the median by as much as
# the median lies from a goal)
KROUNDS=${KROUNDS:-${ROUNDS:-9}}
median_ratio() { # pairs "a b" on stdin -> median of a/b
	awk '$2 > 0 { print $1 / $2 }' | sort -g | awk '{ v[NR] = $1 } END { if (NR) printf "%.2f", v[int((NR + 1) / 2)]; else print "n/a" }'
}
range_ratio() { # pairs "a b" on stdin -> "lo-hi" of a/b
	awk '$2 > 0 { print $1 / $2 }' | sort -g | awk '{ v[NR] = $1 } END { if (NR) printf "%.2f-%.2f", v[1], v[NR]; else print "n/a" }'
}
# round_pairs "A" "B": the lines "a b" of two space-separated series, round by round
round_pairs() {
	paste <(tr ' ' '\n' <<<"$1" | sed '/^$/d') <(tr ' ' '\n' <<<"$2" | sed '/^$/d')
}
bench_kernel_flags() {
	local in=$1 label=$2 r j p peers="p124" t m rc c
	[ -x "$P31" ] && peers="p124 p131"
	local -A wall rss cpu
	for r in $(seq "$KROUNDS"); do
		local order="btfgen $peers"
		[ $((r % 2)) = 0 ] && order="$(tr ' ' '\n' <<<"$order" | tac | xargs)"
		for j in 1 2; do
			for p in $order; do
				# shellcheck disable=SC2046
				measure "$T/k" $(peer_cmd $p $j "$in" "$T/k.$p.$j.btf")
				read -r t m rc c <"$T/k"
				[ "$rc" = 0 ] || { note "$label: $p -j$j exit $rc"; return; }
				wall[$p.$j]+=" $t" rss[$p.$j]+=" $m" cpu[$p.$j]+=" $c"
				[ $p = btfgen ] && cp "$T/k.btfgen.$j.btf" "$T/k.btfgen.$j.r$r.btf"
			done
		done
	done
	local same=identical f
	for f in "$T"/k.btfgen.*.r*.btf; do
		cmp -s "$f" "$T/k.btfgen.1.r1.btf" || same=DIFFERENT
	done
	# shellcheck disable=SC2086
	for j in 1 2; do
		ENC["btfgen-pahole, kernel flags, -j$j"]="$(median ${cpu[btfgen.$j]}) $(median ${wall[btfgen.$j]})"
	done
	for j in 1 2; do
		for p in $peers; do
			local name=pahole_1.24
			[ $p = p131 ] && name=pahole_v1.31
			# shellcheck disable=SC2086
			row "btfgen-pahole $label -j$j wall s vs $name" "$(median ${wall[btfgen.$j]})" "$(median ${wall[$p.$j]})" \
				"$(round_pairs "${wall[btfgen.$j]}" "${wall[$p.$j]}" | median_ratio)" \
				"median of $KROUNDS paired ratios (range $(round_pairs "${wall[btfgen.$j]}" "${wall[$p.$j]}" | range_ratio)); btfgen: 6.18 flags; $name: $(peer_cmd $p $j IN OUT | cut -d' ' -f2- | sed 's/ --btf_encode_detached=OUT IN//')"
			# shellcheck disable=SC2086
			row "btfgen-pahole $label -j$j CPU s vs $name" "$(median ${cpu[btfgen.$j]})" "$(median ${cpu[$p.$j]})" \
				"$(round_pairs "${cpu[btfgen.$j]}" "${cpu[$p.$j]}" | median_ratio)" \
				"user+sys; median of paired ratios (range $(round_pairs "${cpu[btfgen.$j]}" "${cpu[$p.$j]}" | range_ratio); less disturbed by the other jobs than wall time)"
			# shellcheck disable=SC2086
			row "btfgen-pahole $label -j$j peak RSS MB vs $name" "$(($(median ${rss[btfgen.$j]}) / 1024))" "$(($(median ${rss[$p.$j]}) / 1024))" \
				"$(round_pairs "${rss[btfgen.$j]}" "${rss[$p.$j]}" | median_ratio)" \
				"ru_maxrss; median of paired ratios"
		done
	done
	local fo fp info
	fo=$("$B/btfdump" file "$T/k.btfgen.1.btf" | grep -c " FUNC '")
	info="btfgen bytes at -j1/-j2 over all rounds: $same; FUNCs: btfgen $fo"
	if [ -x "$P31" ]; then
		fp=$("$B/btfdump" file "$T/k.p131.1.btf" | grep -c " FUNC '")
		"$SIG" --names "$T/k.btfgen.1.btf" | sort -u >"$T/ko.names"
		"$SIG" --names "$T/k.p131.1.btf" | sort -u >"$T/kp.names"
		info+=", pahole v1.31 $fp; named types (kind name size) only in btfgen: $(comm -13 "$T/kp.names" "$T/ko.names" | wc -l), only in pahole v1.31: $(comm -23 "$T/kp.names" "$T/ko.names" | wc -l)"
	fi
	row "btfgen-pahole $label output" "$fo FUNCs" "" "" "$info"
}
[ -n "$vmlinux" ] && bench_kernel_flags "$vmlinux" "vmlinux $(basename "$vmlinux" | sed 's/vmlinux-//') kernel flags"

# (d) the floor: the DIE walk alone ----------------------------------------------
FLOOR=$B/bench/dwarf_floor
floor_rows() {
	local in=$1 label=$2 m r t rc c out mb
	local -A fc fw
	mb=$(readelf -SW "$in" | awk '$2 == ".debug_info" { print $6 }')
	mb=$(( 0x${mb:-0} / 1048576 ))
	for r in $(seq "${ROUNDS:-5}"); do
		for m in reader libdw; do
			measure "$T/f" "$FLOOR" "$m" "$in"
			read -r t _ rc c <"$T/f"
			[ "$rc" = 0 ] || { note "$label: dwarf_floor $m exit $rc"; return; }
			fc[$m]+=" $c" fw[$m]+=" $t"
		done
	done
	out=$("$FLOOR" reader "$in") || return
	# shellcheck disable=SC2086
	for m in reader libdw; do
		fc[$m]=$(median ${fc[$m]}) fw[$m]=$(median ${fw[$m]})
		row "DIE walk floor $label ($m) CPU s" "${fc[$m]}" "" "" \
			"one pass over .debug_info ($mb MB, ${out% *} units, ${out#* } DIEs), first child / next sibling and nothing else: bench/dwarf_floor $m (fresh processes, median of ${ROUNDS:-5}; wall ${fw[$m]} s)"
	done
	local k cw
	while IFS= read -r k; do
		read -r -a cw <<<"${ENC[$k]}"
		row "btfgen $label $k CPU s vs the floor" "${cw[0]}" "${fc[reader]}" "$(ratio "${cw[0]}" "${fc[reader]}")" \
			"multiple of the reader's DIE walk (libdw's walk: $(ratio "${cw[0]}" "${fc[libdw]}")x); wall ${cw[1]} s, $(ratio "${cw[1]}" "${fw[reader]}")x the walk's wall"
	done < <(printf '%s\n' "${!ENC[@]}" | sort)
}
if [ -n "$vmlinux" ] && [ -x "$FLOOR" ]; then
	floor_rows "$vmlinux" "vmlinux $(basename "$vmlinux" | sed 's/vmlinux-//')"
elif [ -n "$vmlinux" ]; then
	note "no $FLOOR (make bench builds it): floor rows skipped"
fi

# (e) modules, as Makefile.modfinal encodes them -----------------------------
# Debian's 6.1 modules with DWARF (kernel/fs: 135 modules, from the same
# -dbg package as the vmlinux, cached in $CACHE/modules-VERSION): each one
# encoded over the vmlinux BTF its own encoder made in (c) (-J --btf_base,
# detached here), btfgen-pahole then pahole v1.31 (else 1.24) per module,
# fresh processes: total wall time per encoder, and the modules whose named
# types (kind, name) differ.
named() { # named() FILE BASE: "KIND name" of the named types
	"$B/btfdump" file "$1" --base "$2" | awk '/^\[/ && $3 != "\x27(anon)\x27" { print $2, $3 }' | sort
}
bench_modules() {
	local dir=$1 gbase=$2 pbase=$3 peer=$4 ko t m rc c tot_g=0 tot_p=0 cpu_g=0 cpu_p=0 n=0 differ=0 failed=0
	local pflags=--btf_features=$K618,attributes
	[ "$peer" = pahole ] && pflags=--btf_gen_floats
	while IFS= read -r ko; do
		measure "$T/m" "$B/btfgen-pahole" -J -j1 --btf_features=$K618 --btf_features=attributes --lang_exclude=rust \
			--btf_base "$gbase" --btf_encode_detached="$T/m.g.btf" "$ko"
		read -r t m rc c <"$T/m"
		[ "$rc" = 0 ] || { note "btfgen-pahole failed on $ko"; failed=$((failed + 1)); continue; }
		tot_g=$(awk -v a="$tot_g" -v b="$t" 'BEGIN { print a + b }')
		cpu_g=$(awk -v a="$cpu_g" -v b="$c" 'BEGIN { print a + b }')
		measure "$T/m" "$peer" -J -j1 "$pflags" --lang_exclude=rust \
			--btf_base "$pbase" --btf_encode_detached="$T/m.p.btf" "$ko"
		read -r t m rc c <"$T/m"
		[ "$rc" = 0 ] || { note "$peer failed on $ko"; failed=$((failed + 1)); continue; }
		tot_p=$(awk -v a="$tot_p" -v b="$t" 'BEGIN { print a + b }')
		cpu_p=$(awk -v a="$cpu_p" -v b="$c" 'BEGIN { print a + b }')
		n=$((n + 1))
		if ! cmp -s <(named "$T/m.g.btf" "$gbase") <(named "$T/m.p.btf" "$pbase"); then
			differ=$((differ + 1))
			note "named types differ: $ko"
		fi
	done < <(find "$dir" -path '*/kernel/fs/*' -name '*.ko' | sort)
	[ $n -gt 0 ] || return
	row "btfgen-pahole $n modules (Debian 6.1 kernel/fs) total wall s" "$tot_g" "$tot_p" "$(ratio "$tot_g" "$tot_p")" \
		"-J -j1 --btf_base own vmlinux BTF, 6.18 flags, vs $("$peer" --version); named types differ in $differ modules; $failed failed"
	row "btfgen-pahole $n modules (Debian 6.1 kernel/fs) total CPU s" "$cpu_g" "$cpu_p" "$(ratio "$cpu_g" "$cpu_p")" \
		"user+sys of each process, summed"
}
if [ -n "$vmlinux" ] && [ -f "$T/k.btfgen.2.btf" ]; then
	mods=$(fetch_modules "$(basename "$vmlinux" | sed 's/vmlinux-//')") || note "no modules with DWARF: module row skipped"
	if [ -n "$mods" ]; then
		if [ -f "$T/k.p131.2.btf" ]; then
			bench_modules "$mods" "$T/k.btfgen.2.btf" "$T/k.p131.2.btf" "$P31"
		else
			bench_modules "$mods" "$T/k.btfgen.2.btf" "$T/k.p124.2.btf" pahole
		fi
	fi
fi
exit 0
