#!/bin/bash
# btfcheck CLI: verdict lines, JSON Lines, exit codes, inputs (raw, ELF,
# stdin), log sizes, and --kernel agreement with BPF_BTF_LOAD (as root).
. "$(dirname "$0")/../lib.sh"
BC=$B/btfcheck
all() { # true when every quoted condition holds: all "cmd1" "cmd2"
	local c
	for c in "$@"; do eval "$c" || return 1; done
}

# a valid blob: int + ptr; an invalid one: INT with encoding 3
printf '\x9f\xeb\x01\x00\x18\x00\x00\x00\x00\x00\x00\x00\x1c\x00\x00\x00\x1c\x00\x00\x00\x05\x00\x00\x00' >"$T/ok.btf"
printf '\x01\x00\x00\x00\x00\x00\x00\x01\x04\x00\x00\x00\x20\x00\x00\x01' >>"$T/ok.btf"
printf '\x00\x00\x00\x00\x00\x00\x00\x02\x01\x00\x00\x00' >>"$T/ok.btf"
printf '\x00int\x00' >>"$T/ok.btf"
head -c 24 "$T/ok.btf" >"$T/bad.btf"
printf '\x01\x00\x00\x00\x00\x00\x00\x01\x04\x00\x00\x00\x20\x00\x00\x03' >>"$T/bad.btf"
printf '\x00\x00\x00\x00\x00\x00\x00\x02\x01\x00\x00\x00\x00int\x00' >>"$T/bad.btf"

"$BC" "$T/ok.btf" >"$T/out" 2>"$T/err"; rc=$?
check "valid blob exits 0" [ $rc = 0 ]
check "valid verdict line on stdout" grep -qx "$T/ok.btf: OK" "$T/out"
check "level 0 prints no log" [ ! -s "$T/err" ]

"$BC" "$T/bad.btf" >"$T/out" 2>"$T/err"; rc=$?
check "rejected blob exits 1" [ $rc = 1 ]
check "rejected verdict names the last log line and errno" \
	grep -qx "$T/bad.btf: rejected: \[1\] INT int size=4 bits_offset=0 nr_bits=32 encoding=UNKN Unsupported encoding (ENOTSUPP)" "$T/out"

"$BC" --log-level 1 "$T/ok.btf" >"$T/out" 2>"$T/err"
check "level 1 log on stderr" grep -qx "\[2\] PTR (anon) type_id=1" "$T/err"
check "header dump in the log" grep -qx "btf_total_size: 57" "$T/err"
check "result on stdout: the verdict alone (| tee keeps it)" [ "$(cat "$T/out")" = "$T/ok.btf: OK" ]

"$BC" --json "$T/ok.btf" "$T/bad.btf" >"$T/out" 2>/dev/null; rc=$?
check "json: one line per file" [ "$(wc -l <"$T/out")" = 2 ]
check "json: exit 1 when one is rejected" [ $rc = 1 ]
check "json: valid object" python3 -c '
import json,sys
a,b=[json.loads(l) for l in open(sys.argv[1])]
assert a["valid"] is True and a["errno"]==0 and "log" not in a and a["mode"]=="raw", a
assert b["valid"] is False and b["errno"]==524 and b["errno_name"]=="ENOTSUPP", b
assert b["log"].endswith("Unsupported encoding\n"), b
' "$T/out"

"$BC" --log-level 1 --log-size 20 "$T/bad.btf" >"$T/out" 2>"$T/err"; rc=$?
check "small log: ENOSPC replaces the error" grep -q "(ENOSPC)$" "$T/out"
check "small log: the last 19 bytes" [ "$(cat "$T/err")" = "supported encoding" ]

"$BC" - <"$T/ok.btf" >"$T/out"; rc=$?
grep -qx -- "-: OK" "$T/out"; g=$?
check "stdin" [ $rc = 0 -a $g = 0 ]

"$BC" "$T/missing.btf" 2>"$T/err"; rc=$?
check "unreadable file exits 5 with one line" [ $rc = 5 -a "$(wc -l <"$T/err")" = 1 ]
cp /bin/true "$T/noBTF.elf"
"$BC" "$T/noBTF.elf" 2>"$T/err"; rc=$?
grep -q "no .BTF section" "$T/err"; g=$?
check "ELF without .BTF exits 4" [ $rc = 4 -a $g = 0 ]
"$BC" --bogus 2>/dev/null; rc=$?
check "usage error exits 2" [ $rc = 2 ]

head -c $((16 * 1024 * 1024 + 1)) /dev/zero >"$T/big.btf"
"$BC" --json "$T/big.btf" >"$T/out" 2>/dev/null; rc=$?
grep -q '"errno":7,"errno_name":"E2BIG"' "$T/out"; g=$?
check "over 16 MiB is E2BIG" [ $rc = 1 -a $g = 0 ]

# split BTF over ok.btf: [3] STRUCT named "1a" (bad), logged like dmesg
printf '\x9f\xeb\x01\x00\x18\x00\x00\x00\x00\x00\x00\x00\x0c\x00\x00\x00\x0c\x00\x00\x00\x03\x00\x00\x00' >"$T/split.btf"
printf '\x05\x00\x00\x00\x00\x00\x00\x04\x04\x00\x00\x00' >>"$T/split.btf"
printf '1a\x00' >>"$T/split.btf"
"$BC" --base "$T/ok.btf" --log-level 1 "$T/split.btf" >"$T/out" 2>"$T/err"; rc=$?
check "--base: module BTF rejected" [ $rc = 1 ]
check "--base: dmesg-style log" grep -qx "BPF: Invalid name" "$T/err"
check "--base: verdict names the message" grep -q "rejected: \[3\] STRUCT 1a size=4 vlen=0 Invalid name (EINVAL)" "$T/out"
"$BC" "$T/split.btf" >"$T/out" 2>/dev/null; rc=$?
check "split BTF without --base: rejected with one hint line" \
	all "[ $rc = 1 ]" '[ "$(grep -c "split.btf: hint: looks like split BTF.*pass --base" "$T/out")" = 1 ]'

# an ELF object with .BTF (clang's own BTF when clang-16 is here)
if command -v "$BPF_CLANG" >/dev/null; then
	printf 'struct s { int a; long b; } g;\nint f(struct s *p) { return p->a; }\n' >"$T/o.c"
	if bpf_cc -g -c "$T/o.c" -o "$T/o.o" 2>/dev/null; then
		"$BC" --log-level 1 -q "$T/o.o" >"$T/out"
		check "ELF .BTF input is verified" grep -q "^$T/o.o: " "$T/out"
	fi
	# two bpf_spin_locks in a map value (issue 33): the kernel logs nothing
	# for it, so its log ends with whatever type came last; the verdict
	# names the struct and the member, btfgen's refusal too
	cat >"$T/lock2.c" <<'EOF'
#include <linux/bpf.h>
struct val { struct bpf_spin_lock lock; int n; struct bpf_spin_lock lock2; };
struct { int (*type)[BPF_MAP_TYPE_ARRAY]; int (*max_entries)[1]; int *key; struct val *value; }
	m __attribute__((section(".maps"), used));
char _license[] __attribute__((section("license"), used)) = "GPL";
EOF
	if bpf_cc -g -O2 "${BPF_INC[@]}" -c "$T/lock2.c" -o "$T/lock2.o"; then
		# shellcheck disable=SC2034 # read by the conditions all() evals
		cause="struct 'val' \\[[0-9]*\\] member 'lock2': a second struct bpf_spin_lock after member 'lock' (the kernel takes one per struct) (E2BIG)"
		"$BC" --log-level 1 "$T/lock2.o" >"$T/out" 2>"$T/err"; rc=$?
		check "two spin locks: the verdict names struct and member" \
			all "[ $rc = 1 ]" 'grep -q "^$T/lock2.o: rejected: $cause" "$T/out"'
		check "two spin locks: the log is left as the kernel writes it (no cause in it)" \
			all '[ -s "$T/err" ]' '! grep -q "second struct bpf_spin_lock" "$T/err"'
		if [ "$(id -u)" = 0 ]; then
			"$BC" --kernel --log-level 1 "$T/lock2.o" >"$T/out" 2>/dev/null
			check "two spin locks: the kernel agrees, log included" grep -q "kernel: rejected (E2BIG), agrees" "$T/out"
		fi
		llvm-objcopy --remove-section=.BTF --remove-section=.BTF.ext "$T/lock2.o" "$T/lock2.dw.o"
		"$B/btfgen" --in-place "$T/lock2.dw.o" 2>"$T/err"; rc=$?
		check "two spin locks: btfgen's refusal names struct and member" \
			all "[ $rc = 4 ]" 'grep -q "not written: $cause" "$T/err"'
	fi
fi

# every write to stdout is checked, the final flush and close too (issue 13)
"$BC" --json "$T/ok.btf" >/dev/full 2>"$T/err"; rc=$?
check "full filesystem: exit 5 with a message" all "[ $rc = 5 ]" 'grep -q "write error on standard output" "$T/err"'
"$BC" --json "$T/ok.btf" >&- 2>"$T/err"; rc=$?
check "stdout closed: exit 5 with a message" all "[ $rc = 5 ]" 'grep -q "write error on standard output" "$T/err"'
"$BC" --log-level 1 "$T/bad.btf" >/dev/full 2>/dev/null; rc=$?
check "full filesystem, text log of a rejection: exit 5" [ $rc = 5 ]
"$BC" "$T/ok.btf" >&- 2>"$T/err"; rc=$?
check "stdout closed: the verdict is lost, exit 5 with a message" \
	all "[ $rc = 5 ]" 'grep -q "write error on standard output" "$T/err"'
"$BC" "$T/ok.btf" >/dev/full 2>"$T/err"; rc=$?
check "full filesystem, text verdict: exit 5 with a message" \
	all "[ $rc = 5 ]" 'grep -q "write error on standard output" "$T/err"'

# The text log is streamed to stderr as it is made (issue 16: a vmlinux log
# is ~10 MB): the same bytes as the log kept whole (--log-size), the verdict
# from its last line, also when the log spans many 64 KiB chunks.
python3 tests/verify/big_log_btf.py "$T/big.btf"
"$BC" --log-level 1 "$T/big.btf" >"$T/err" 2>"$T/out"; rc=$?
"$BC" --log-level 1 --log-size 100000000 "$T/big.btf" 2>"$T/out2" >/dev/null
check "streamed log of a rejection (>64 KiB): same bytes as kept whole" \
	all "[ $rc = 1 ]" '[ "$(wc -c <"$T/out")" -gt 140000 ]' 'cmp -s "$T/out" "$T/out2"'
check "streamed log of a rejection: the verdict is its last line" grep -qx \
	"$T/big.btf: rejected: \[6002\] INT int size=4 bits_offset=0 nr_bits=32 encoding=UNKN Unsupported encoding (ENOTSUPP)" "$T/err"
"$BC" --log-level 1 "$T/bad.btf" >"$T/err" 2>"$T/out"
check "streamed log, one chunk: the verdict is its last line" grep -qx \
	"$T/bad.btf: rejected: \[1\] INT int size=4 bits_offset=0 nr_bits=32 encoding=UNKN Unsupported encoding (ENOTSUPP)" "$T/err"
if [ -r /sys/kernel/btf/vmlinux ]; then
	"$BC" --log-level 1 /sys/kernel/btf/vmlinux 2>"$T/out" >/dev/null
	"$BC" --log-level 1 --log-size 100000000 /sys/kernel/btf/vmlinux 2>"$T/out2" >/dev/null
	check "streamed vmlinux log: same bytes as kept whole" all '[ -s "$T/out" ]' 'cmp -s "$T/out" "$T/out2"'
fi

# CI ergonomics (issue 16): a JSON record for every file, usage errors for
# bad log options, an ENOSPC verdict that says by how much
printf 'x' >"$T/one.bin"
"$BC" --json "$T/ok.btf" "$T/missing.btf" /bin/true "$T/one.bin" "$T/bad.btf" >"$T/out" 2>"$T/err"; rc=$?
check "json: a record for every file, errors included (exit 5: worst is unreadable)" \
	all "[ $rc = 5 ]" '[ "$(wc -l <"$T/out")" = 5 ]'
check "json: error records name the file and say why" python3 -c '
import json,sys
r=[json.loads(l) for l in open(sys.argv[1])]
assert r[1]=={"file":sys.argv[2],"error":"No such file or directory"}, r[1]
assert r[2]=={"file":"/bin/true","error":"no .BTF section"}, r[2]
assert r[3]["valid"] is False and r[3]["reason"]=="hdr_len not found", r[3]
assert "log" not in r[0] and r[4]["log"].endswith("Unsupported encoding\n"), (r[0], r[4])
' "$T/out" "$T/missing.btf"
"$BC" --json --quiet "$T/bad.btf" >"$T/out" 2>/dev/null
check "json --quiet: no log even for a rejection" grep -qv '"log"' "$T/out"
"$BC" --json --log-level 1 "$T/ok.btf" >"$T/out" 2>/dev/null
check "json with --log-level: the log of a valid file too" grep -q '"log":"magic: 0xeb9f' "$T/out"
for bad in "--log-level 16" "--log-level x" "--log-size 1073741824" "--log-size -1" "--log-size 100"; do
	# shellcheck disable=SC2086 # the option and its value
	"$BC" $bad "$T/ok.btf" >/dev/null 2>"$T/err"; rc=$?
	check "usage error: $bad (exit 2, one line)" all "[ $rc = 2 ]" '[ "$(wc -l <"$T/err")" = 1 ]'
done
"$BC" --log-level 1 --log-size 40 "$T/bad.btf" >"$T/err" 2>/dev/null; rc=$?
# shellcheck disable=SC2034 # read by the condition all() evals
need=$("$BC" --json --log-level 1 "$T/bad.btf" 2>/dev/null | sed 's/.*"log_true_size":\([0-9]*\).*/\1/')
check "ENOSPC says the buffer was too small, by how much, and the verdict with room" all "[ $rc = 1 ]" \
	'grep -qF "rejected: log buffer too small: the log needs $need bytes, --log-size gave 40 ($((need - 40)) more); with room: rejected (ENOTSUPP): [1] INT int size=4 bits_offset=0 nr_bits=32 encoding=UNKN Unsupported encoding (ENOSPC)" "$T/err"'
"$BC" --json --log-level 1 --log-size 40 "$T/bad.btf" >"$T/out" 2>/dev/null
check "ENOSPC in JSON: log_size and log_short_by" python3 -c '
import json,sys
r=json.loads(open(sys.argv[1]).read())
assert r["errno"]==28 and r["log_size"]==40 and r["log_short_by"]==r["log_true_size"]-40, r
' "$T/out"

if [ "$(id -u)" = 0 ]; then
	# --log-size 0 with a log level: the kernel is asked without a buffer too
	"$BC" --kernel --log-level 1 --log-size 0 "$T/ok.btf" "$T/bad.btf" >"$T/err"; rc=$?
	check "--kernel --log-level 1 --log-size 0 agrees on both" all '[ "$(grep -c "agrees" "$T/err")" = 2 ]' "[ $rc = 1 ]"
	"$BC" --kernel --log-level 1 --log-size 100000000 -q /sys/kernel/btf/vmlinux "$T/ok.btf" "$T/bad.btf" >"$T/err"; rc=$?
	check "--kernel agrees on vmlinux and both blobs" [ "$(grep -c "agrees" "$T/err")" = 3 ]
	check "--kernel exit status is the verdict's (1)" [ $rc = 1 ]
	if command -v setpriv >/dev/null; then
		# BPF_BTF_LOAD refused (no privileges): said in text and JSON, never "agrees"
		chmod 755 "$T"
		setpriv --reuid=65534 --regid=65534 --clear-groups "$BC" --kernel --json "$T/ok.btf" >"$T/out" 2>/dev/null
		check "--kernel not permitted: JSON kernel.compared false" \
			grep -q '"kernel":{"compared":false,"errno":1,"errno_name":"EPERM"}' "$T/out"
		setpriv --reuid=65534 --regid=65534 --clear-groups "$BC" --kernel "$T/ok.btf" >"$T/err"
		check "--kernel not permitted: text says not compared" grep -q "kernel: BPF_BTF_LOAD not permitted (EPERM), not compared" "$T/err"
	fi
	"$BC" --kernel --json --log-size 30 "$T/bad.btf" >"$T/out" 2>/dev/null
	check "--kernel in JSON" grep -q '"kernel":{"valid":false,"errno":28,"errno_name":"ENOSPC","log_true_size":[0-9]*,"agree":true,"compared":true}' "$T/out"
fi
exit $fail
