#!/bin/bash
# Module BTF across encoders: the Debian 6.1 kernel/fs and drivers/net
# modules (linux-image-*-amd64-dbg, cached by bench/lib.sh) encoded with
# the 6.18 kernel's flags over a vmlinux BTF made by pahole v1.31 and over
# one made by btfgen-pahole (-J, detached). Sizes only (bytes of the raw
# split BTF), so the modules are encoded two at a time. Rows, per module
# set: btfgen-pahole's modules over pahole's vmlinux / pahole's own;
# pahole's modules over btfgen-pahole's vmlinux / over its own; btfgen's
# own mode (--base) over pahole's vmlinux / pahole's: the total, and the
# median and largest per-module ratio (goal: <= 1.02x each).
set -u
B=${B:-build}
CACHE=${BTF_BENCH_CACHE:-/var/cache/btf-bench}
. bench/lib.sh # fetch_vmlinux, fetch_modules
note() { echo "bench_interop: $*" >&2; }
P31=$CACHE/pahole-v1.31/bin/pahole
[ -x "$P31" ] || { note "no pahole v1.31 at $P31 (scripts/build-pahole.sh): skipped"; exit 0; }
vmlinux=$(fetch_vmlinux) && [ -n "$vmlinux" ] || { note "no vmlinux with DWARF: skipped"; exit 0; }
ver=${vmlinux##*/vmlinux-}
mods=$(fetch_modules "$ver") || { note "no modules with DWARF: skipped"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
K618=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs
export B P31 T K618

# one module, all encodings: prints "name pp gp pg own" (bytes; pp: pahole
# over pahole's vmlinux, gp: btfgen-pahole over it, pg: pahole over
# btfgen-pahole's vmlinux, own: btfgen --base pahole's vmlinux); btfgen-pahole
# with --func_rules=v1.31, the function set of the peer
cat >"$T/one.sh" <<'EOF'
ko=$1 n=$(echo "$1" | md5sum | cut -c1-12)
flags=(-J "--btf_features=$K618" --btf_features=attributes --lang_exclude=rust)
"$P31" "${flags[@]}" --btf_base "$T/v.p" --btf_encode_detached="$T/$n.pp" "$ko" >/dev/null 2>&1 &&
	"$B/btfgen-pahole" "${flags[@]}" --func_rules=v1.31 --btf_base "$T/v.p" --btf_encode_detached="$T/$n.gp" "$ko" >/dev/null 2>&1 &&
	"$P31" "${flags[@]}" --btf_base "$T/v.g" --btf_encode_detached="$T/$n.pg" "$ko" >/dev/null 2>&1 &&
	"$B/btfgen" -j1 --base "$T/v.p" -o "$T/$n.own" "$ko" >/dev/null 2>&1 ||
	{ echo "$ko FAILED"; exit 0; }
echo "$ko $(stat -c %s "$T/$n.pp" "$T/$n.gp" "$T/$n.pg" "$T/$n.own" | tr '\n' ' ')"
rm -f "$T/$n".*
EOF
"$P31" -J -j2 "--btf_features=$K618" --btf_features=attributes --lang_exclude=rust \
	--btf_encode_detached="$T/v.p" "$vmlinux" >/dev/null 2>&1 &&
	"$B/btfgen-pahole" -J -j2 "--btf_features=$K618" --btf_features=attributes --lang_exclude=rust --func_rules=v1.31 \
		--btf_encode_detached="$T/v.g" "$vmlinux" >/dev/null 2>&1 || { note "vmlinux encoding failed"; exit 1; }

k=$mods/usr/lib/debug/lib/modules/$ver/kernel
for set in fs drivers/net; do
	find "$k/$set" -name '*.ko' | sort | xargs -P2 -n1 bash "$T/one.sh" >"$T/sizes"
	failed=$(grep -c FAILED "$T/sizes")
	grep -v FAILED "$T/sizes" | python3 -c '
import statistics, sys
rows = [list(map(int, l.split()[1:5])) for l in sys.stdin]
def stats(num, den):
    r = sorted(x[num] / x[den] for x in rows)
    worst = sum(1 for v in r if v > 1.02)
    return (sum(x[num] for x in rows), sum(x[den] for x in rows), statistics.median(r), r[-1], worst)
label = sys.argv[1] + " (%d modules)" % len(rows)
for what, num, den, peer in (("btfgen-pahole over pahole v1.31 vmlinux", 1, 0, "pahole over its own"),
                             ("pahole v1.31 over btfgen-pahole vmlinux", 2, 0, "pahole over its own"),
                             ("btfgen --base pahole v1.31 vmlinux", 3, 0, "pahole over its own")):
    a, b, med, mx, worst = stats(num, den)
    print("| module BTF bytes, %s: %s | %d | %d | %.3f | %s; per module median %.3fx, largest %.3fx, %d above 1.02x |"
          % (label, what, a, b, a / b, peer, med, mx, worst))
' "Debian 6.1 kernel/$set" || exit 1
	[ "$failed" = 0 ] || note "$failed modules of $set failed to encode"
done
exit 0
