# Sourced (not run) by bench/bench_*.sh: timing ours against the peer.

# wall time of one command in seconds, its output discarded
wall() {
	local s=$EPOCHREALTIME
	"$@" >/dev/null 2>&1
	local e=$EPOCHREALTIME
	awk -v a="$s" -v b="$e" 'BEGIN { printf "%.6f\n", b - a }'
}

# median of the numbers on stdin, one a line
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# time_pair LABEL OURS PEER: OURS and PEER are commands (functions) with the
# same job. Their outputs are compared once (same=identical or DIFFERENT),
# then they run RUNS times each, alternating; o and p are set to the median
# wall times in seconds, all times go to stderr. Uses the work dir $tmp.
time_pair() {
	local i # (no locals named like the callers' variables: the commands see them)
	same=identical
	"$2" >"$tmp/ours" 2>/dev/null
	"$3" >"$tmp/peer" 2>/dev/null
	cmp -s "$tmp/ours" "$tmp/peer" || same=DIFFERENT
	: >"$tmp/t_ours"; : >"$tmp/t_peer"
	for ((i = 0; i < RUNS; i++)); do
		wall "$2" >>"$tmp/t_ours"
		wall "$3" >>"$tmp/t_peer"
	done
	o=$(median <"$tmp/t_ours")
	p=$(median <"$tmp/t_peer")
	echo "$1: ours $(tr '\n' ' ' <"$tmp/t_ours")" >&2
	echo "$1: peer $(tr '\n' ' ' <"$tmp/t_peer")" >&2
}

# The Debian kernel with DWARF, fetched once into $CACHE (default
# /var/cache/btf-bench) with apt-get download from linux-image-*-amd64-dbg:
# fetch_vmlinux prints the vmlinux path; fetch_modules VERSION prints a
# directory holding that package's kernel/fs, kernel/drivers/net and
# kernel/net modules (usr/lib/debug/lib/modules/VERSION/kernel/...).
# Both return 1 when the download is impossible. note() is the caller's.
: "${CACHE:=${BTF_BENCH_CACHE:-/var/cache/btf-bench}}"
fetch_vmlinux() {
	local v pkg
	v=$(ls "$CACHE"/vmlinux-* 2>/dev/null | head -1)
	[ -n "$v" ] && { echo "$v"; return; }
	command -v apt-get >/dev/null || return 1
	pkg=$(apt-cache depends linux-image-amd64-dbg 2>/dev/null | awk '/Depends:/ { print $2; exit }')
	[ -n "$pkg" ] || return 1
	mkdir -p "$CACHE" && cd "$CACHE" || return 1
	note "downloading $pkg (~900 MB) into $CACHE"
	apt-get download "$pkg" >&2 || { cd - >/dev/null || true; return 1; }
	dpkg-deb --fsys-tarfile "$pkg"_*.deb | tar -x --wildcards './usr/lib/debug/boot/vmlinux-*' &&
		mv usr/lib/debug/boot/vmlinux-* . && rm -rf usr "$pkg"_*.deb
	cd - >/dev/null || return 1
	v=$(ls "$CACHE"/vmlinux-* 2>/dev/null | head -1)
	[ -n "$v" ] && echo "$v"
}
fetch_modules() {
	local ver=$1 dir=$CACHE/modules-$1 pkg k
	k=usr/lib/debug/lib/modules/$ver/kernel
	[ -d "$dir/$k/fs" ] && [ -d "$dir/$k/drivers/net" ] && { echo "$dir"; return; }
	pkg=linux-image-$ver-dbg
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp" && cd "$dir.tmp" || return 1
	note "downloading $pkg for its kernel/fs, drivers/net and net modules"
	apt-get download "$pkg" >&2 && dpkg-deb --fsys-tarfile "$pkg"_*.deb |
		tar -x --wildcards "./$k/fs/*" "./$k/drivers/net/*" "./$k/net/*" || { cd - >/dev/null || true; return 1; }
	rm -f "$pkg"_*.deb
	cd - >/dev/null || return 1
	rm -rf "$dir" && mv "$dir.tmp" "$dir" && echo "$dir"
}
