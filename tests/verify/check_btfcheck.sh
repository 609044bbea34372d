#!/bin/bash
# btfcheck CLI: verdict lines, JSON Lines, exit codes, inputs (raw, ELF,
# stdin), log sizes, and --kernel agreement with BPF_BTF_LOAD (as root).
B=${B:-build}
BC=$B/btfcheck
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # description, condition...
	local what=$1; shift
	if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi
}
all() { # true when every quoted condition holds: all "cmd1" "cmd2"
	local c
	for c in "$@"; do eval "$c" || return 1; done
}

# a valid blob: int + ptr; an invalid one: INT with encoding 3
printf '\x9f\xeb\x01\x00\x18\x00\x00\x00\x00\x00\x00\x00\x1c\x00\x00\x00\x1c\x00\x00\x00\x05\x00\x00\x00' >"$tmp/ok.btf"
printf '\x01\x00\x00\x00\x00\x00\x00\x01\x04\x00\x00\x00\x20\x00\x00\x01' >>"$tmp/ok.btf"
printf '\x00\x00\x00\x00\x00\x00\x00\x02\x01\x00\x00\x00' >>"$tmp/ok.btf"
printf '\x00int\x00' >>"$tmp/ok.btf"
head -c 24 "$tmp/ok.btf" >"$tmp/bad.btf"
printf '\x01\x00\x00\x00\x00\x00\x00\x01\x04\x00\x00\x00\x20\x00\x00\x03' >>"$tmp/bad.btf"
printf '\x00\x00\x00\x00\x00\x00\x00\x02\x01\x00\x00\x00\x00int\x00' >>"$tmp/bad.btf"

"$BC" "$tmp/ok.btf" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "valid blob exits 0" [ $rc = 0 ]
check "valid verdict line on stdout" grep -qx "$tmp/ok.btf: OK" "$tmp/out"
check "level 0 prints no log" [ ! -s "$tmp/err" ]

"$BC" "$tmp/bad.btf" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "rejected blob exits 1" [ $rc = 1 ]
check "rejected verdict names the last log line and errno" \
	grep -qx "$tmp/bad.btf: rejected: \[1\] INT int size=4 bits_offset=0 nr_bits=32 encoding=UNKN Unsupported encoding (ENOTSUPP)" "$tmp/out"

"$BC" --log-level 1 "$tmp/ok.btf" >"$tmp/out" 2>"$tmp/err"
check "level 1 log on stderr" grep -qx "\[2\] PTR (anon) type_id=1" "$tmp/err"
check "header dump in the log" grep -qx "btf_total_size: 57" "$tmp/err"
check "result on stdout: the verdict alone (| tee keeps it)" [ "$(cat "$tmp/out")" = "$tmp/ok.btf: OK" ]

"$BC" --json "$tmp/ok.btf" "$tmp/bad.btf" >"$tmp/out" 2>/dev/null; rc=$?
check "json: one line per file" [ "$(wc -l <"$tmp/out")" = 2 ]
check "json: exit 1 when one is rejected" [ $rc = 1 ]
check "json: valid object" python3 -c '
import json,sys
a,b=[json.loads(l) for l in open(sys.argv[1])]
assert a["valid"] is True and a["errno"]==0 and "log" not in a and a["mode"]=="raw", a
assert b["valid"] is False and b["errno"]==524 and b["errno_name"]=="ENOTSUPP", b
assert b["log"].endswith("Unsupported encoding\n"), b
' "$tmp/out"

"$BC" --log-level 1 --log-size 20 "$tmp/bad.btf" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "small log: ENOSPC replaces the error" grep -q "(ENOSPC)$" "$tmp/out"
check "small log: the last 19 bytes" [ "$(cat "$tmp/err")" = "supported encoding" ]

"$BC" - <"$tmp/ok.btf" >"$tmp/out"; rc=$?
grep -qx -- "-: OK" "$tmp/out"; g=$?
check "stdin" [ $rc = 0 -a $g = 0 ]

"$BC" "$tmp/missing.btf" 2>"$tmp/err"; rc=$?
check "unreadable file exits 5 with one line" [ $rc = 5 -a "$(wc -l <"$tmp/err")" = 1 ]
cp /bin/true "$tmp/noBTF.elf"
"$BC" "$tmp/noBTF.elf" 2>"$tmp/err"; rc=$?
grep -q "no .BTF section" "$tmp/err"; g=$?
check "ELF without .BTF exits 4" [ $rc = 4 -a $g = 0 ]
"$BC" --bogus 2>/dev/null; rc=$?
check "usage error exits 2" [ $rc = 2 ]

head -c $((16 * 1024 * 1024 + 1)) /dev/zero >"$tmp/big.btf"
"$BC" --json "$tmp/big.btf" >"$tmp/out" 2>/dev/null; rc=$?
grep -q '"errno":7,"errno_name":"E2BIG"' "$tmp/out"; g=$?
check "over 16 MiB is E2BIG" [ $rc = 1 -a $g = 0 ]

# split BTF over ok.btf: [3] STRUCT named "1a" (bad), logged like dmesg
printf '\x9f\xeb\x01\x00\x18\x00\x00\x00\x00\x00\x00\x00\x0c\x00\x00\x00\x0c\x00\x00\x00\x03\x00\x00\x00' >"$tmp/split.btf"
printf '\x05\x00\x00\x00\x00\x00\x00\x04\x04\x00\x00\x00' >>"$tmp/split.btf"
printf '1a\x00' >>"$tmp/split.btf"
"$BC" --base "$tmp/ok.btf" --log-level 1 "$tmp/split.btf" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "--base: module BTF rejected" [ $rc = 1 ]
check "--base: dmesg-style log" grep -qx "BPF: Invalid name" "$tmp/err"
check "--base: verdict names the message" grep -q "rejected: \[3\] STRUCT 1a size=4 vlen=0 Invalid name (EINVAL)" "$tmp/out"
"$BC" "$tmp/split.btf" >"$tmp/out" 2>/dev/null; rc=$?
check "split BTF without --base: rejected with one hint line" \
	all "[ $rc = 1 ]" '[ "$(grep -c "split.btf: hint: looks like split BTF.*pass --base" "$tmp/out")" = 1 ]'

# an ELF object with .BTF (clang's own BTF when clang-16 is here)
if command -v clang-16 >/dev/null; then
	printf 'struct s { int a; long b; } g;\nint f(struct s *p) { return p->a; }\n' >"$tmp/o.c"
	if clang-16 -g -target bpf -c "$tmp/o.c" -o "$tmp/o.o" 2>/dev/null; then
		"$BC" --log-level 1 -q "$tmp/o.o" >"$tmp/out"
		check "ELF .BTF input is verified" grep -q "^$tmp/o.o: " "$tmp/out"
	fi
	# two bpf_spin_locks in a map value (issue 33): the kernel logs nothing
	# for it, so its log ends with whatever type came last; the verdict
	# names the struct and the member, btfgen's refusal too
	cat >"$tmp/lock2.c" <<'EOF'
#include <linux/bpf.h>
struct val { struct bpf_spin_lock lock; int n; struct bpf_spin_lock lock2; };
struct { int (*type)[BPF_MAP_TYPE_ARRAY]; int (*max_entries)[1]; int *key; struct val *value; }
	m __attribute__((section(".maps"), used));
char _license[] __attribute__((section("license"), used)) = "GPL";
EOF
	if clang-16 -g -O2 -target bpf -I"/usr/include/$(gcc -print-multiarch)" -c "$tmp/lock2.c" -o "$tmp/lock2.o"; then
		# shellcheck disable=SC2034 # read by the conditions all() evals
		cause="struct 'val' \\[[0-9]*\\] member 'lock2': a second struct bpf_spin_lock after member 'lock' (the kernel takes one per struct) (E2BIG)"
		"$BC" --log-level 1 "$tmp/lock2.o" >"$tmp/out" 2>"$tmp/err"; rc=$?
		check "two spin locks: the verdict names struct and member" \
			all "[ $rc = 1 ]" 'grep -q "^$tmp/lock2.o: rejected: $cause" "$tmp/out"'
		check "two spin locks: the log is left as the kernel writes it (no cause in it)" \
			all '[ -s "$tmp/err" ]' '! grep -q "second struct bpf_spin_lock" "$tmp/err"'
		if [ "$(id -u)" = 0 ]; then
			"$BC" --kernel --log-level 1 "$tmp/lock2.o" >"$tmp/out" 2>/dev/null
			check "two spin locks: the kernel agrees, log included" grep -q "kernel: rejected (E2BIG), agrees" "$tmp/out"
		fi
		llvm-objcopy --remove-section=.BTF --remove-section=.BTF.ext "$tmp/lock2.o" "$tmp/lock2.dw.o"
		"$B/btfgen" --in-place "$tmp/lock2.dw.o" 2>"$tmp/err"; rc=$?
		check "two spin locks: btfgen's refusal names struct and member" \
			all "[ $rc = 4 ]" 'grep -q "not written: $cause" "$tmp/err"'
	fi
fi

# every write to stdout is checked, the final flush and close too (issue 13)
"$BC" --json "$tmp/ok.btf" >/dev/full 2>"$tmp/err"; rc=$?
check "full filesystem: exit 5 with a message" all "[ $rc = 5 ]" 'grep -q "write error on standard output" "$tmp/err"'
"$BC" --json "$tmp/ok.btf" >&- 2>"$tmp/err"; rc=$?
check "stdout closed: exit 5 with a message" all "[ $rc = 5 ]" 'grep -q "write error on standard output" "$tmp/err"'
"$BC" --log-level 1 "$tmp/bad.btf" >/dev/full 2>/dev/null; rc=$?
check "full filesystem, text log of a rejection: exit 5" [ $rc = 5 ]
"$BC" "$tmp/ok.btf" >&- 2>"$tmp/err"; rc=$?
check "stdout closed: the verdict is lost, exit 5 with a message" \
	all "[ $rc = 5 ]" 'grep -q "write error on standard output" "$tmp/err"'
"$BC" "$tmp/ok.btf" >/dev/full 2>"$tmp/err"; rc=$?
check "full filesystem, text verdict: exit 5 with a message" \
	all "[ $rc = 5 ]" 'grep -q "write error on standard output" "$tmp/err"'

# The text log is streamed to stderr as it is made (issue 16: a vmlinux log
# is ~10 MB): the same bytes as the log kept whole (--log-size), the verdict
# from its last line, also when the log spans many 64 KiB chunks.
python3 - "$tmp/big.btf" <<'PY'
import struct, sys
n = 6000  # PTR types: ~150 KB of log before the bad INT
types = struct.pack('<III', 1, 0x01000000, 4) + struct.pack('<I', 32)  # [1] int
types += b''.join(struct.pack('<III', 0, 0x02000000, 1) for _ in range(n))
types += struct.pack('<III', 1, 0x01000000, 4) + struct.pack('<I', 0x03000020)  # bad encoding
strs = b'\0int\0'
hdr = struct.pack('<HBBIIIII', 0xeb9f, 1, 0, 24, 0, len(types), len(types), len(strs))
open(sys.argv[1], 'wb').write(hdr + types + strs)
PY
"$BC" --log-level 1 "$tmp/big.btf" >"$tmp/err" 2>"$tmp/out"; rc=$?
"$BC" --log-level 1 --log-size 100000000 "$tmp/big.btf" 2>"$tmp/out2" >/dev/null
check "streamed log of a rejection (>64 KiB): same bytes as kept whole" \
	all "[ $rc = 1 ]" '[ "$(wc -c <"$tmp/out")" -gt 140000 ]' 'cmp -s "$tmp/out" "$tmp/out2"'
check "streamed log of a rejection: the verdict is its last line" grep -qx \
	"$tmp/big.btf: rejected: \[6002\] INT int size=4 bits_offset=0 nr_bits=32 encoding=UNKN Unsupported encoding (ENOTSUPP)" "$tmp/err"
"$BC" --log-level 1 "$tmp/bad.btf" >"$tmp/err" 2>"$tmp/out"
check "streamed log, one chunk: the verdict is its last line" grep -qx \
	"$tmp/bad.btf: rejected: \[1\] INT int size=4 bits_offset=0 nr_bits=32 encoding=UNKN Unsupported encoding (ENOTSUPP)" "$tmp/err"
if [ -r /sys/kernel/btf/vmlinux ]; then
	"$BC" --log-level 1 /sys/kernel/btf/vmlinux 2>"$tmp/out" >/dev/null
	"$BC" --log-level 1 --log-size 100000000 /sys/kernel/btf/vmlinux 2>"$tmp/out2" >/dev/null
	check "streamed vmlinux log: same bytes as kept whole" all '[ -s "$tmp/out" ]' 'cmp -s "$tmp/out" "$tmp/out2"'
fi

# CI ergonomics (issue 16): a JSON record for every file, usage errors for
# bad log options, an ENOSPC verdict that says by how much
printf 'x' >"$tmp/one.bin"
"$BC" --json "$tmp/ok.btf" "$tmp/missing.btf" /bin/true "$tmp/one.bin" "$tmp/bad.btf" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "json: a record for every file, errors included (exit 5: worst is unreadable)" \
	all "[ $rc = 5 ]" '[ "$(wc -l <"$tmp/out")" = 5 ]'
check "json: error records name the file and say why" python3 -c '
import json,sys
r=[json.loads(l) for l in open(sys.argv[1])]
assert r[1]=={"file":sys.argv[2],"error":"No such file or directory"}, r[1]
assert r[2]=={"file":"/bin/true","error":"no .BTF section"}, r[2]
assert r[3]["valid"] is False and r[3]["reason"]=="hdr_len not found", r[3]
assert "log" not in r[0] and r[4]["log"].endswith("Unsupported encoding\n"), (r[0], r[4])
' "$tmp/out" "$tmp/missing.btf"
"$BC" --json --quiet "$tmp/bad.btf" >"$tmp/out" 2>/dev/null
check "json --quiet: no log even for a rejection" grep -qv '"log"' "$tmp/out"
"$BC" --json --log-level 1 "$tmp/ok.btf" >"$tmp/out" 2>/dev/null
check "json with --log-level: the log of a valid file too" grep -q '"log":"magic: 0xeb9f' "$tmp/out"
for bad in "--log-level 16" "--log-level x" "--log-size 1073741824" "--log-size -1" "--log-size 100"; do
	# shellcheck disable=SC2086 # the option and its value
	"$BC" $bad "$tmp/ok.btf" >/dev/null 2>"$tmp/err"; rc=$?
	check "usage error: $bad (exit 2, one line)" all "[ $rc = 2 ]" '[ "$(wc -l <"$tmp/err")" = 1 ]'
done
"$BC" --log-level 1 --log-size 40 "$tmp/bad.btf" >"$tmp/err" 2>/dev/null; rc=$?
# shellcheck disable=SC2034 # read by the condition all() evals
need=$("$BC" --json --log-level 1 "$tmp/bad.btf" 2>/dev/null | sed 's/.*"log_true_size":\([0-9]*\).*/\1/')
check "ENOSPC says the buffer was too small, by how much, and the verdict with room" all "[ $rc = 1 ]" \
	'grep -qF "rejected: log buffer too small: the log needs $need bytes, --log-size gave 40 ($((need - 40)) more); with room: rejected (ENOTSUPP): [1] INT int size=4 bits_offset=0 nr_bits=32 encoding=UNKN Unsupported encoding (ENOSPC)" "$tmp/err"'
"$BC" --json --log-level 1 --log-size 40 "$tmp/bad.btf" >"$tmp/out" 2>/dev/null
check "ENOSPC in JSON: log_size and log_short_by" python3 -c '
import json,sys
r=json.loads(open(sys.argv[1]).read())
assert r["errno"]==28 and r["log_size"]==40 and r["log_short_by"]==r["log_true_size"]-40, r
' "$tmp/out"

if [ "$(id -u)" = 0 ]; then
	# --log-size 0 with a log level: the kernel is asked without a buffer too
	"$BC" --kernel --log-level 1 --log-size 0 "$tmp/ok.btf" "$tmp/bad.btf" >"$tmp/err"; rc=$?
	check "--kernel --log-level 1 --log-size 0 agrees on both" all '[ "$(grep -c "agrees" "$tmp/err")" = 2 ]' "[ $rc = 1 ]"
	"$BC" --kernel --log-level 1 --log-size 100000000 -q /sys/kernel/btf/vmlinux "$tmp/ok.btf" "$tmp/bad.btf" >"$tmp/err"; rc=$?
	check "--kernel agrees on vmlinux and both blobs" [ "$(grep -c "agrees" "$tmp/err")" = 3 ]
	check "--kernel exit status is the verdict's (1)" [ $rc = 1 ]
	if command -v setpriv >/dev/null; then
		# BPF_BTF_LOAD refused (no privileges): said in text and JSON, never "agrees"
		chmod 755 "$tmp"
		setpriv --reuid=65534 --regid=65534 --clear-groups "$BC" --kernel --json "$tmp/ok.btf" >"$tmp/out" 2>/dev/null
		check "--kernel not permitted: JSON kernel.compared false" \
			grep -q '"kernel":{"compared":false,"errno":1,"errno_name":"EPERM"}' "$tmp/out"
		setpriv --reuid=65534 --regid=65534 --clear-groups "$BC" --kernel "$tmp/ok.btf" >"$tmp/err"
		check "--kernel not permitted: text says not compared" grep -q "kernel: BPF_BTF_LOAD not permitted (EPERM), not compared" "$tmp/err"
	fi
	"$BC" --kernel --json --log-size 30 "$tmp/bad.btf" >"$tmp/out" 2>/dev/null
	check "--kernel in JSON" grep -q '"kernel":{"valid":false,"errno":28,"errno_name":"ENOSPC","log_true_size":[0-9]*,"agree":true,"compared":true}' "$tmp/out"
fi
exit $fail
