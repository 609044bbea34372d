#!/bin/bash
# The proof that btfgen can stand in for pahole in a kernel build (minutes;
# never part of make check). Builds a small x86_64 kernel from Debian's
# linux-source-6.1 (installed with apt-get when missing) with
# CONFIG_DEBUG_INFO_BTF=y, CONFIG_DEBUG_INFO_BTF_MODULES=y and a few modules,
# once per leg:
#   pahole: PAHOLE = the pahole v1.31 that scripts/build-pahole.sh caches (or
#           the installed pahole when there is none)
#   btfgen: PAHOLE = a "pahole" link to $B/btfgen (btfgen's pahole command line)
# and checks: the build completes (link-vmlinux.sh with resolve_btfids and
# every module's BTF step), btfcheck accepts vmlinux's .BTF and every
# module's (--base vmlinux), and each of them has the same named types (kind,
# name, size) as the pahole build's. Records each leg's build time and the
# encoder's own share of it (every -J run is timed by a wrapper).
#
#   scripts/kernel-build-proof.sh [pahole|btfgen|check|all]   (default all)
#   scripts/kernel-build-proof.sh relink [check]
#
# A leg's build goes to $KWORK/out-LEG (default KWORK=/var/cache/btf-bench/
# kbuild), its figures to out-LEG/proof-times; "check" compares the two
# finished legs. Run it with nice: it keeps 2 CPUs busy for a while.
# "relink" is the short form for a shared machine: after the pahole leg's
# full build, its tree (objects kept) gets vmlinux and every module linked
# again, once per encoder, results copied to out-pahole-relink and
# out-btfgen-relink: the same link-vmlinux.sh / Makefile.modfinal steps,
# timed the same way; then "relink check" compares those two.
set -u
B=$(realpath "${B:-build}")
KWORK=${KWORK:-/var/cache/btf-bench/kbuild}
JOBS=${JOBS:-2}
SRC=$KWORK/linux-source-6.1
what=${1:-all}
note() { echo "kernel-build-proof: $*" >&2; }
die() { note "$*"; exit 1; }

for t in "$B/btfgen" "$B/btfcheck" "$B/btfdump"; do
	[ -x "$t" ] || die "$t missing (make all first)"
done

prepare_source() {
	[ -f "$SRC/Makefile" ] && return 0
	if [ ! -f /usr/src/linux-source-6.1.tar.xz ]; then
		apt-get install -y -q linux-source-6.1 bc flex bison libssl-dev libelf-dev cpio >&2 ||
			die "cannot install linux-source-6.1"
	fi
	mkdir -p "$KWORK" && tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$KWORK" ||
		die "cannot unpack linux-source-6.1"
}

# the real encoder behind a leg's PAHOLE
real_encoder() {
	local p
	case $1 in
	pahole)
		p=${PAHOLE_REF:-${BTF_BENCH_CACHE:-/var/cache/btf-bench}/pahole-v1.31/bin/pahole}
		[ -x "$p" ] || p=$(command -v pahole) || die "no pahole to compare with"
		echo "$p"
		;;
	btfgen)
		mkdir -p "$KWORK/bin-btfgen-real"
		ln -sf "$B/btfgen" "$KWORK/bin-btfgen-real/pahole"
		echo "$KWORK/bin-btfgen-real/pahole"
		;;
	esac
}

# $KWORK/bin-LEG/pahole: runs the leg's encoder; each -J run's wall time goes
# to out-LEG/encoder.log
make_wrapper() {
	local leg=$1 real=$2 dir=$KWORK/bin-$1 log=${3:-$KWORK/out-$1}/encoder.log
	mkdir -p "$dir"
	cat >"$dir/pahole" <<EOF
#!/bin/bash
case " \$* " in
*" -J "*|*--btf_encode_detached*) ;;
*) exec "$real" "\$@" ;;
esac
s=\$EPOCHREALTIME
"$real" "\$@"
rc=\$?
e=\$EPOCHREALTIME
echo "\$s \$e \$rc \${*: -1}" >>"$log"
exit \$rc
EOF
	chmod +x "$dir/pahole"
	echo "$dir/pahole"
}

configure() {
	local out=$1 pahole=$2
	make -s -C "$SRC" O="$out" ARCH=x86_64 PAHOLE="$pahole" tinyconfig >/dev/null || return 1
	"$SRC/scripts/config" --file "$out/.config" \
		-e 64BIT -e PRINTK -e BUG -e SYSFS -e PROC_FS -e BLOCK -e MULTIUSER \
		-e MODULES -e MODULE_UNLOAD -e BPF -e BPF_SYSCALL -e DEBUG_KERNEL \
		-d DEBUG_INFO_NONE -e DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT -e DEBUG_INFO \
		-d DEBUG_INFO_REDUCED -d DEBUG_INFO_SPLIT -e DEBUG_INFO_BTF -e DEBUG_INFO_BTF_MODULES \
		-m EXT2_FS -m ISO9660_FS -m FAT_FS -m MSDOS_FS -m VFAT_FS -e NLS \
		-m NLS_CODEPAGE_437 -m NLS_ISO8859_1 -m CRC_CCITT -m CRC_ITU_T -m CRC7 ||
		return 1
	make -s -C "$SRC" O="$out" ARCH=x86_64 PAHOLE="$pahole" olddefconfig >/dev/null || return 1
	grep -q '^CONFIG_DEBUG_INFO_BTF=y' "$out/.config" &&
		grep -q '^CONFIG_DEBUG_INFO_BTF_MODULES=y' "$out/.config" ||
		{ note "$out/.config: BTF options did not stick"; return 1; }
}

build_leg() {
	local leg=$1 real wrapper out=$KWORK/out-$1 s e
	real=$(real_encoder "$leg") || exit 1
	rm -rf "$out"
	mkdir -p "$out"
	wrapper=$(make_wrapper "$leg" "$real")
	note "$leg: $("$wrapper" --version) ($real), building in $out"
	configure "$out" "$wrapper" || die "$leg: configuration failed"
	s=$EPOCHREALTIME
	make -C "$SRC" O="$out" ARCH=x86_64 PAHOLE="$wrapper" -j"$JOBS" all >"$out/build.log" 2>&1 ||
		{ tail -30 "$out/build.log" >&2; die "$leg: kernel build failed (see $out/build.log)"; }
	e=$EPOCHREALTIME
	grep -q 'BTF' "$out/build.log" || note "$leg: no BTF step in the build log?"
	awk -v s="$s" -v e="$e" -v leg="$leg" -v ver="$("$wrapper" --version)" '
		{ t += $2 - $1; n++; if ($3 != 0) bad++ }
		END { printf "%s %s build_s %.1f encoder_s %.2f encoder_runs %d failed_runs %d share %.4f\n",
			leg, ver, e - s, t, n, bad + 0, t / (e - s) }' "$out/encoder.log" >"$out/proof-times"
	cat "$out/proof-times"
}

# relink_leg LEG: vmlinux and the modules of the pahole leg's tree linked
# again by LEG's encoder, in that tree (kbuild's .cmd files hold the output
# directory's path, so a copy elsewhere would compile everything again; a
# changed PAHOLE only re-runs Kconfig, and fixdep rebuilds just what uses
# CONFIG_PAHOLE_VERSION). The results (vmlinux, every .ko, the figures) are
# copied to out-LEG-relink for "relink check".
relink_leg() {
	local leg=$1 real wrapper tree=$KWORK/out-pahole out=$KWORK/out-$1-relink s e m
	[ -f "$tree/proof-times" ] || die "relink: the pahole leg's full build is not done"
	real=$(real_encoder "$leg") || exit 1
	rm -rf "$out"
	mkdir -p "$out"
	rm -f "$tree"/vmlinux "$tree"/.tmp_vmlinux* "$tree"/System.map "$tree"/.btf.vmlinux.bin.o \
		"$tree"/arch/x86/boot/bzImage
	find "$tree" -name '*.ko' -delete
	wrapper=$(make_wrapper "$leg" "$real" "$out")
	note "$leg: relinking in $tree ($("$wrapper" --version))"
	s=$EPOCHREALTIME
	make -C "$SRC" O="$tree" ARCH=x86_64 PAHOLE="$wrapper" -j"$JOBS" all >"$out/build.log" 2>&1 ||
		{ tail -30 "$out/build.log" >&2; die "$leg: relink failed (see $out/build.log)"; }
	e=$EPOCHREALTIME
	cp "$tree/vmlinux" "$out/" || die "$leg: no vmlinux"
	while IFS= read -r m; do
		mkdir -p "$out/$(dirname "$m")" && cp "$tree/$m" "$out/$m" || die "cannot copy $m"
	done < <(cd "$tree" && find . -name '*.ko' | sed 's|^\./||')
	awk -v s="$s" -v e="$e" -v leg="$leg" -v ver="$("$wrapper" --version)" \
		-v cc="$(grep -c '^  CC ' "$out/build.log")" '
		{ t += $2 - $1; n++; if ($3 != 0) bad++ }
		END { printf "%s %s relink_s %.1f encoder_s %.2f encoder_runs %d failed_runs %d share %.4f recompiled %d\n",
			leg, ver, e - s, t, n, bad + 0, t / (e - s), cc }' "$out/encoder.log" >"$out/proof-times"
	cat "$out/proof-times"
}

# kind name size of the named types of FILE's BTF (over BASE when given)
names() {
	local f=$1 base=${2:-}
	if [ -n "$base" ]; then
		"$B/btfdump" file "$f" --base "$base"
	else
		"$B/btfdump" file "$f"
	fi | awk '/^\[/ && $3 != "\x27(anon)\x27" {
		k = $2; n = $3; sz = ""
		for (i = 4; i <= NF; i++) if ($i ~ /^size=/) sz = $i
		if (k ~ /^(STRUCT|UNION|ENUM|ENUM64|TYPEDEF|FUNC|FWD|VAR|DATASEC)$/) print k, n, sz
	}' | sort -u
}

check() {
	local p=$KWORK/out-pahole$1 g=$KWORK/out-btfgen$1 fail=0 m rel nmods=0 diffs=0
	[ -f "$p/proof-times" ] && [ -f "$g/proof-times" ] || die "run both legs first"
	for leg in "$p" "$g"; do
		"$B/btfcheck" --quiet "$leg/vmlinux" >/dev/null ||
			{ note "FAIL: btfcheck rejects $leg/vmlinux"; fail=1; }
	done
	names "$p/vmlinux" >"$KWORK/p.names"
	names "$g/vmlinux" >"$KWORK/g.names"
	if ! diff "$KWORK/p.names" "$KWORK/g.names" >"$KWORK/vmlinux.diff"; then
		note "FAIL: vmlinux named types differ (< pahole, > btfgen):"
		head -30 "$KWORK/vmlinux.diff" >&2
		fail=1
	fi
	while IFS= read -r m; do
		rel=${m#"$p"/}
		nmods=$((nmods + 1))
		[ -f "$g/$rel" ] || { note "FAIL: $rel missing in the btfgen build"; fail=1; continue; }
		"$B/btfcheck" --quiet --base "$p/vmlinux" "$m" >/dev/null ||
			{ note "FAIL: btfcheck rejects pahole's $rel"; fail=1; }
		"$B/btfcheck" --quiet --base "$g/vmlinux" "$g/$rel" >/dev/null ||
			{ note "FAIL: btfcheck rejects btfgen's $rel"; fail=1; }
		if ! diff <(names "$m" "$p/vmlinux") <(names "$g/$rel" "$g/vmlinux") >"$KWORK/mod.diff"; then
			note "FAIL: $rel: named types differ (< pahole, > btfgen):"
			head -10 "$KWORK/mod.diff" >&2
			diffs=$((diffs + 1))
			fail=1
		fi
	done < <(find "$p" -name '*.ko' | sort)
	[ "$nmods" -gt 0 ] || { note "FAIL: no modules built"; fail=1; }
	cat "$p/proof-times" "$g/proof-times"
	awk '{ t[$1] = $4; enc[$1] = $6 } END {
		printf "%s time btfgen/pahole %.3f, encoder time btfgen/pahole %.3f\n",
			$3, t["btfgen"] / t["pahole"], enc["btfgen"] / enc["pahole"] }' \
		"$p/proof-times" "$g/proof-times"
	echo "vmlinux: $(wc -l <"$KWORK/g.names") named types (pahole $(wc -l <"$KWORK/p.names")); $nmods modules, $diffs with different named types"
	[ $fail -eq 0 ] && echo "PASS: both builds complete, btfcheck accepts all BTF, the same named types"
	return $fail
}

case $what in
pahole|btfgen) prepare_source; build_leg "$what" ;;
check) check "" ;;
all) prepare_source; build_leg pahole && build_leg btfgen && check "" ;;
relink)
	if [ "${2:-}" != check ]; then
		relink_leg pahole && relink_leg btfgen || exit 1
	fi
	check -relink
	;;
*) echo "usage: $0 [pahole|btfgen|check|all] | relink [check]" >&2; exit 2 ;;
esac
