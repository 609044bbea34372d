#!/bin/bash
# Golden tests: btfdump against bpftool on the same inputs, in this run,
# raw text, -j and -p, byte for byte:
#   /sys/kernel/btf/vmlinux (file and kernel id), a module's BTF when the
#   machine has one, a BPF object compiled here from kinds.bpf.c (every kind),
#   its raw .BTF, split BTF made by pahole over vmlinux (raw and ELF, with
#   --base), and an opposite-endian copy (against bpftool when it reads it,
#   and always against btfdump's native dump).
B=${B:-build}
dump=$B/btfdump
swap=$B/tests/dump/btf_swap
here=$(cd "$(dirname "$0")" && pwd)
vmlinux=/sys/kernel/btf/vmlinux

skip() { echo "SKIP: $*"; exit 77; }
command -v bpftool >/dev/null || skip "bpftool is not installed"
command -v clang-16 >/dev/null || skip "clang-16 is not installed"
[ -r $vmlinux ] || skip "no kernel BTF at $vmlinux"
[ -x "$dump" ] && [ -x "$swap" ] || { echo "FAIL: $dump or $swap not built"; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 checks=0

bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# same LABEL FILE-A FILE-B: byte-identical and not empty
same() {
	checks=$((checks + 1))
	if [ ! -s "$2" ]; then
		bad "$1: empty output"
	elif ! cmp -s "$2" "$3"; then
		bad "$1: outputs differ (btfdump vs reference, first differences):"
		diff "$2" "$3" | head -n 10 | sed 's/^/    /'
	else
		echo "ok   $1 ($(wc -l <"$2") lines)"
	fi
}

# golden LABEL "bpftool args" "btfdump args": every output mode
golden() {
	local label=$1 peer_args=$2 our_args=$3 mode
	for mode in "" -j -p; do
		# shellcheck disable=SC2086
		if ! bpftool $mode btf dump $peer_args >"$tmp/peer" 2>"$tmp/peer.err"; then
			bad "$label $mode: bpftool failed: $(head -1 "$tmp/peer.err")"
			continue
		fi
		# shellcheck disable=SC2086
		if ! $dump $mode $our_args >"$tmp/ours" 2>"$tmp/ours.err"; then
			bad "$label $mode: btfdump failed: $(head -1 "$tmp/ours.err")"
			continue
		fi
		same "$label ${mode:-raw}" "$tmp/ours" "$tmp/peer"
	done
}

# -- kernel BTF --------------------------------------------------------------
golden "vmlinux" "file $vmlinux" "file $vmlinux"
vmid=$(bpftool btf list | awk -F: '/name \[vmlinux\]/ { print $1; exit }')
if [ -n "$vmid" ]; then
	golden "vmlinux by kernel id $vmid" "id $vmid" "id $vmid"
else
	bad "bpftool btf list shows no vmlinux BTF object"
fi
module=$(find /sys/kernel/btf -mindepth 1 -maxdepth 1 ! -name vmlinux -printf '%f\n' | sort | head -1)
if [ -n "$module" ]; then
	golden "module $module" "file /sys/kernel/btf/$module" "file /sys/kernel/btf/$module"
else
	echo "note: no module BTF on this machine (/sys/kernel/btf has only vmlinux); module case not run"
fi

# -- a BPF object with every kind --------------------------------------------
obj=$tmp/kinds.o
if ! clang-16 -g -O2 -target bpf -c "$here/kinds.bpf.c" -o "$obj" 2>"$tmp/cc.err"; then
	cat "$tmp/cc.err"; bad "clang-16 failed on kinds.bpf.c"
else
	kinds=$(bpftool btf dump file "$obj" | awk '/^\[/ { print $2 }' | sort -u | tr '\n' ' ')
	echo "kinds in kinds.o: $kinds"
	for k in INT PTR ARRAY STRUCT UNION ENUM FWD TYPEDEF VOLATILE CONST RESTRICT FUNC \
		 FUNC_PROTO VAR DATASEC FLOAT DECL_TAG TYPE_TAG ENUM64; do
		case " $kinds " in *" $k "*) ;; *) bad "kinds.o has no $k (test input incomplete)" ;; esac
	done
	golden "kinds.o (ELF)" "file $obj" "file $obj"
	$swap --native "$obj" "$tmp/kinds.btf" || bad "btf_swap --native failed"
	golden "kinds.btf (raw)" "file $tmp/kinds.btf" "file $tmp/kinds.btf"
	# shorthand and bpftool's own spelling give the same bytes
	bpftool btf dump file "$obj" >"$tmp/peer"
	$dump "$obj" >"$tmp/ours"; same "shorthand btfdump PATH" "$tmp/ours" "$tmp/peer"
	$dump btf dump file "$obj" format raw >"$tmp/ours"; same "btfdump btf dump file PATH format raw" "$tmp/ours" "$tmp/peer"

	# opposite byte order: parsed and printed exactly as the native blob
	$swap "$obj" "$tmp/kinds.swapped" || bad "btf_swap failed"
	for mode in "" -j -p; do
		$dump $mode file "$tmp/kinds.btf" >"$tmp/native"
		$dump $mode file "$tmp/kinds.swapped" >"$tmp/ours" || bad "btfdump failed on the opposite-endian blob"
		same "opposite-endian vs native ${mode:-raw}" "$tmp/ours" "$tmp/native"
		if bpftool $mode btf dump file "$tmp/kinds.swapped" >"$tmp/peer" 2>/dev/null; then
			same "opposite-endian vs bpftool ${mode:-raw}" "$tmp/ours" "$tmp/peer"
		else
			echo "note: bpftool cannot read the opposite-endian blob; compared with the native dump only"
		fi
	done
	cmp -s "$tmp/kinds.btf" "$tmp/kinds.swapped" && bad "swapped blob is identical to the native one"
fi

# -- a backslash in a name ----------------------------------------------------
# bpftool 7.1 writes a backslash inside a JSON string as \n; so do we.
if clang-16 -g -O2 -target bpf -c "$here/escapes.bpf.c" -o "$tmp/esc.o" 2>"$tmp/cc.err"; then
	golden "backslash in a name" "file $tmp/esc.o" "file $tmp/esc.o"
else
	cat "$tmp/cc.err"; bad "clang-16 failed on escapes.bpf.c"
fi

# -- split BTF over vmlinux (pahole --btf_base) ------------------------------
cat >"$tmp/split.c" <<'C'
struct split_node { struct split_node *next; int payload; unsigned long flags : 3; };
struct task_struct;
typedef int (*split_cb)(struct split_node *, ...);
int split_use(struct split_node *n, struct task_struct *t, split_cb cb) { return n->payload + (t != 0) + (cb != 0); }
C
if ! command -v pahole >/dev/null; then
	echo "note: pahole not installed; split BTF case not run"
elif clang-16 -g -O2 -c "$tmp/split.c" -o "$tmp/split.o" &&
     pahole -J --btf_base $vmlinux --btf_encode_detached="$tmp/split.btf" "$tmp/split.o" >/dev/null &&
     cp "$tmp/split.o" "$tmp/split_elf.o" && pahole -J --btf_base $vmlinux "$tmp/split_elf.o" >/dev/null; then
	golden "split raw --base vmlinux" "-B $vmlinux file $tmp/split.btf" "file $tmp/split.btf --base $vmlinux"
	golden "split ELF --base vmlinux" "-B $vmlinux file $tmp/split_elf.o" "file $tmp/split_elf.o --base $vmlinux"
	first=$($dump file "$tmp/split.btf" --base $vmlinux | head -1 | sed 's/^\[\([0-9]*\)\].*/\1/')
	last=$($dump file $vmlinux | tail -n 1 | grep -o '^\[[0-9]*\]' | tr -d '[]')
	[ -z "$last" ] && last=$($dump -j file $vmlinux | grep -o '"id":[0-9]*' | tail -1 | cut -d: -f2)
	checks=$((checks + 1))
	[ "$first" = $((last + 1)) ] && echo "ok   split ids start after vmlinux ($first)" ||
		bad "split dump starts at id '$first', expected $((last + 1))"
else
	bad "could not make split BTF with pahole"
fi

echo "$checks checks, $fails failed"
[ $fails -eq 0 ]
