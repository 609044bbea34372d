#!/bin/bash
# Golden tests: btfdump against bpftool on the same inputs, in this run,
# raw text, -j and -p, byte for byte:
#   /sys/kernel/btf/vmlinux (file and kernel id), a module's BTF when the
#   machine has one, a BPF object compiled here from kinds.bpf.c (every kind),
#   its raw .BTF, split BTF made by pahole over vmlinux (raw and ELF, with
#   --base), and an opposite-endian copy (against bpftool when it reads it,
#   and always against btfdump's native dump).
. "$(dirname "$0")/../lib.sh"
dump=$B/btfdump
swap=$B/tests/dump/btf_swap
here=$(cd "$(dirname "$0")" && pwd)
vmlinux=/sys/kernel/btf/vmlinux

command -v bpftool >/dev/null || skip "bpftool is not installed"
need_tools "$BPF_CLANG"
[ -r $vmlinux ] || skip "no kernel BTF at $vmlinux"
[ -x "$dump" ] && [ -x "$swap" ] || { echo "FAIL: $dump or $swap not built"; exit 1; }

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
		if ! bpftool $mode btf dump $peer_args >"$T/peer" 2>"$T/peer.err"; then
			bad "$label $mode: bpftool failed: $(head -1 "$T/peer.err")"
			continue
		fi
		# shellcheck disable=SC2086
		if ! $dump $mode $our_args >"$T/ours" 2>"$T/ours.err"; then
			bad "$label $mode: btfdump failed: $(head -1 "$T/ours.err")"
			continue
		fi
		same "$label ${mode:-raw}" "$T/ours" "$T/peer"
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
obj=$T/kinds.o
if ! bpf_cc -g -O2 -c "$here/kinds.bpf.c" -o "$obj" 2>"$T/cc.err"; then
	cat "$T/cc.err"; bad "clang-16 failed on kinds.bpf.c"
else
	kinds=$(bpftool btf dump file "$obj" | awk '/^\[/ { print $2 }' | sort -u | tr '\n' ' ')
	echo "kinds in kinds.o: $kinds"
	for k in INT PTR ARRAY STRUCT UNION ENUM FWD TYPEDEF VOLATILE CONST RESTRICT FUNC \
		 FUNC_PROTO VAR DATASEC FLOAT DECL_TAG TYPE_TAG ENUM64; do
		case " $kinds " in *" $k "*) ;; *) bad "kinds.o has no $k (test input incomplete)" ;; esac
	done
	golden "kinds.o (ELF)" "file $obj" "file $obj"
	$swap --native "$obj" "$T/kinds.btf" || bad "btf_swap --native failed"
	golden "kinds.btf (raw)" "file $T/kinds.btf" "file $T/kinds.btf"
	# shorthand and bpftool's own spelling give the same bytes
	bpftool btf dump file "$obj" >"$T/peer"
	$dump "$obj" >"$T/ours"; same "shorthand btfdump PATH" "$T/ours" "$T/peer"
	$dump btf dump file "$obj" format raw >"$T/ours"; same "btfdump btf dump file PATH format raw" "$T/ours" "$T/peer"

	# opposite byte order: parsed and printed exactly as the native blob
	$swap "$obj" "$T/kinds.swapped" || bad "btf_swap failed"
	for mode in "" -j -p; do
		$dump $mode file "$T/kinds.btf" >"$T/native"
		$dump $mode file "$T/kinds.swapped" >"$T/ours" || bad "btfdump failed on the opposite-endian blob"
		same "opposite-endian vs native ${mode:-raw}" "$T/ours" "$T/native"
		if bpftool $mode btf dump file "$T/kinds.swapped" >"$T/peer" 2>/dev/null; then
			same "opposite-endian vs bpftool ${mode:-raw}" "$T/ours" "$T/peer"
		else
			echo "note: bpftool cannot read the opposite-endian blob; compared with the native dump only"
		fi
	done
	cmp -s "$T/kinds.btf" "$T/kinds.swapped" && bad "swapped blob is identical to the native one"
fi

# -- a backslash in a name ----------------------------------------------------
# bpftool 7.1 writes a backslash inside a JSON string as \n; so do we.
if bpf_cc -g -O2 -c "$here/escapes.bpf.c" -o "$T/esc.o" 2>"$T/cc.err"; then
	golden "backslash in a name" "file $T/esc.o" "file $T/esc.o"
else
	cat "$T/cc.err"; bad "clang-16 failed on escapes.bpf.c"
fi

# -- split BTF over vmlinux (pahole --btf_base) ------------------------------
cat >"$T/split.c" <<'C'
struct split_node { struct split_node *next; int payload; unsigned long flags : 3; };
struct task_struct;
typedef int (*split_cb)(struct split_node *, ...);
int split_use(struct split_node *n, struct task_struct *t, split_cb cb) { return n->payload + (t != 0) + (cb != 0); }
C
if ! command -v pahole >/dev/null; then
	echo "note: pahole not installed; split BTF case not run"
elif clang-16 -g -O2 -c "$T/split.c" -o "$T/split.o" &&
     pahole -J --btf_base $vmlinux --btf_encode_detached="$T/split.btf" "$T/split.o" >/dev/null &&
     cp "$T/split.o" "$T/split_elf.o" && pahole -J --btf_base $vmlinux "$T/split_elf.o" >/dev/null; then
	golden "split raw --base vmlinux" "-B $vmlinux file $T/split.btf" "file $T/split.btf --base $vmlinux"
	golden "split ELF --base vmlinux" "-B $vmlinux file $T/split_elf.o" "file $T/split_elf.o --base $vmlinux"
	first=$($dump file "$T/split.btf" --base $vmlinux | head -1 | sed 's/^\[\([0-9]*\)\].*/\1/')
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
