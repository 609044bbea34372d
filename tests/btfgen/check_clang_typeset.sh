#!/bin/bash
# btfgen's type set on BPF objects is no larger than clang's (issue 15):
# a struct/union reached only through a pointer in a member becomes a FWD,
# types of locals and casts are not emitted (libbtf/dwarf/bpfset.c).
# For the corpus objects ($B/corpus/*.bpf.o), bpf_flow and a tracer built
# against a vmlinux.h of the running kernel:
#  1. as clang built them (clang's .BTF in the object): btfgen's type count
#     and .BTF bytes <= clang's, the named complete structs/unions are
#     exactly clang's, and every named type btfgen emits clang has too
#     (DATASECs aside: where externs go is checked by the corpus run);
#  2. DWARF only (.BTF/.BTF.ext removed): count and bytes <= clang's, no
#     named complete struct/union clang does not have complete (the ones
#     clang completes for CO-RE relocations only are FWDs or absent: the
#     DWARF does not say which they are);
#  3. one __ARRAY_SIZE_TYPE__ at most: clang's DWARF has an 8-byte one for
#     array bounds, unreferenced (also in a host object, no BPF rule).
. "$(dirname "$0")/../lib.sh"
BTFGEN=$B/btfgen DUMP=$B/btfdump
need_tools "$BPF_CLANG" llvm-objcopy llvm-dwarfdump

# kind and name of every named type ("STRUCT foo"), one a line, sorted
names() { "$DUMP" file "$1" | sed -n "s/^\[[0-9]*\] \([A-Z_0-9]*\) '\([^']*\)'.*/\1 \2/p" | grep -v "'(anon)'\| (anon)$" | sort; }
ntypes() { "$DUMP" file "$1" | grep -c '^\['; }

objs=("$B"/corpus/*.bpf.o "$B/bpf/bpf_flow.clang.o")
[ -e "${objs[0]}" ] && [ -e "$B/bpf/bpf_flow.clang.o" ] || { bad "corpus objects not built (make corpus)"; exit 1; }
# the tracer of issue 15: a vmlinux.h from the running kernel's BTF
if [ -r /sys/kernel/btf/vmlinux ]; then
	"$DUMP" file /sys/kernel/btf/vmlinux format c >"$T/vmlinux.h" || bad "btfdump could not write vmlinux.h"
	cat >"$T/vmtrace.bpf.c" <<'EOF'
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");
struct ev { int pid, ppid; char comm[16]; };
struct file *last_file;
int seen;
SEC("tp_btf/sched_process_exec")
int BPF_PROG(on_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	struct ev *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);

	if (!e)
		return 0;
	e->pid = BPF_CORE_READ(p, tgid);
	e->ppid = BPF_CORE_READ(p, real_parent, tgid);
	bpf_core_read_str(e->comm, sizeof(e->comm), &p->comm);
	last_file = BPF_CORE_READ(bprm, file);
	seen++;
	bpf_ringbuf_submit(e, 0);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
EOF
	bpf_cc -g -O2 -D__TARGET_ARCH_x86 "${BPF_INC[@]}" -I"$T" \
		-c "$T/vmtrace.bpf.c" -o "$T/vmtrace.bpf.o" || bad "clang-16 failed on the vmlinux.h tracer"
	objs+=("$T/vmtrace.bpf.o")
else
	bad "no /sys/kernel/btf/vmlinux for the vmlinux.h object"
fi

for o in "${objs[@]}"; do
	[ -e "$o" ] || continue
	n=$(basename "$o" .o)
	llvm-objcopy --dump-section .BTF="$T/$n.clang.btf" "$o" "$T/scratch.o" || { bad "$o: no .BTF"; continue; }
	llvm-objcopy --remove-section .BTF --remove-section .rel.BTF --remove-section .BTF.ext \
		--remove-section .rel.BTF.ext "$o" "$T/$n.dwarf.o"
	names "$T/$n.clang.btf" >"$T/c.names"
	grep -E '^(STRUCT|UNION) ' "$T/c.names" >"$T/c.aggr"
	cn=$(ntypes "$T/$n.clang.btf") cb=$(stat -c %s "$T/$n.clang.btf")
	for mode in clang dwarf; do
		in=$o
		[ $mode = dwarf ] && in=$T/$n.dwarf.o
		out=$T/$n.$mode.btf
		"$BTFGEN" -o "$out" "$in" || { bad "$o ($mode): btfgen failed"; continue; }
		on=$(ntypes "$out") ob=$(stat -c %s "$out")
		# DWARF alone cannot tell static-link externs from __ksym ones:
		# they go to a .ksyms DATASEC (docs/TYPESET.md), one type clang may not have
		oc=$on
		if [ $mode = dwarf ] && "$DUMP" file "$out" | grep -q "DATASEC '.ksyms'" &&
			! "$DUMP" file "$o" | grep -q "DATASEC '.ksyms'"; then
			oc=$((on - 1))
		fi
		[ "$oc" -le "$cn" ] || bad "$o ($mode): $on types, clang has $cn"
		[ "$ob" -le "$cb" ] || bad "$o ($mode): $ob bytes of .BTF, clang's has $cb"
		names "$out" >"$T/o.names"
		grep -E '^(STRUCT|UNION) ' "$T/o.names" >"$T/o.aggr"
		extra=$(comm -13 "$T/c.aggr" "$T/o.aggr" | tr '\n' ',')
		[ -z "$extra" ] || bad "$o ($mode): complete where clang has none or a FWD: $extra"
		if [ $mode = clang ]; then
			missing=$(comm -23 "$T/c.aggr" "$T/o.aggr" | tr '\n' ',')
			[ -z "$missing" ] || bad "$o ($mode): clang's complete structs/unions absent or FWD: $missing"
		fi
		if [ $mode = clang ]; then
			other=$(comm -13 "$T/c.names" "$T/o.names" | grep -v '^DATASEC ' | tr '\n' ',')
			[ -z "$other" ] || bad "$o ($mode): named types clang does not have: $other"
		fi
		asz=$(grep -c '^INT __ARRAY_SIZE_TYPE__$' "$T/o.names")
		[ "$asz" -le 1 ] || bad "$o ($mode): $asz __ARRAY_SIZE_TYPE__ INTs"
		echo "$n ($mode): $on types, $ob bytes; clang $cn types, $cb bytes"
	done
done

# 3. a host object: the unreferenced 8-byte __ARRAY_SIZE_TYPE__ goes there too
printf 'int a[4];\nlong b[2][3];\nint main(void) { return a[0] + (int)b[1][2]; }\n' >"$T/host.c"
if clang-16 -g -O1 -c "$T/host.c" -o "$T/host.o"; then
	llvm-dwarfdump "$T/host.o" | grep -q '__ARRAY_SIZE_TYPE__' ||
		bad "host object: clang's DWARF has no __ARRAY_SIZE_TYPE__ (test premise)"
	if "$BTFGEN" -o "$T/host.btf" "$T/host.o"; then
		asz=$("$DUMP" file "$T/host.btf" | grep -c "INT '__ARRAY_SIZE_TYPE__'")
		[ "$asz" -eq 1 ] || bad "host object: $asz __ARRAY_SIZE_TYPE__ INTs (want 1)"
	else
		bad "host object: btfgen failed"
	fi
else
	bad "clang-16 failed on a host object"
fi
[ $fail -eq 0 ] && echo "PASS: btfgen's type set within clang's on ${#objs[@]} BPF objects (with clang's .BTF and DWARF only)"
exit $fail
