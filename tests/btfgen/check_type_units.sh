#!/bin/bash
# Type units (gcc -fdebug-types-section): structs, unions and enums live in
# type units (DWARF 5: in .debug_info; DWARF 4: in .debug_types) and the
# compile unit names them by signature (DW_AT_signature, DW_FORM_ref_sig8).
# btfgen must give the same types as from the same program without them,
# for linked programs and relocatable objects (COMDAT type units).
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=same_types.sh
. "$(dirname "$0")/same_types.sh"
cat >"$T/a.c" <<'C'
struct list { struct list *next, *prev; };
enum state { IDLE, BUSY = 5, GONE = -1 };
union val { long l; double d; struct list *p; };
struct task { struct list node; enum state st; union val v[4]; struct task *parent;
	      struct { int a : 3, b : 5; } bits; };
typedef struct task task_t;
task_t init_task;
int run(task_t *t, union val *v) { return t->st + (int)v->l; }
int main(void) { return run(&init_task, init_task.v); }
C
fail=0
for v in 4 5; do
	gcc -g -gdwarf-$v -O1 -o "$T/plain$v" "$T/a.c" || { echo "FAIL: gcc"; exit 1; }
	gcc -g -gdwarf-$v -O1 -fdebug-types-section -o "$T/tu$v" "$T/a.c" || { echo "FAIL: gcc"; exit 1; }
	readelf --debug-dump=info "$T/tu$v" 2>/dev/null | grep -q "signature: 0x" ||
		{ echo "FAIL: gcc made no type units (DWARF $v)"; exit 1; }
	same_types "plain$v" "tu$v" "type units give other types (DWARF $v)"
	grep -q '^struct task size=' "$T/tu$v.sig" || { echo "FAIL: struct task missing (DWARF $v)"; fail=1; }
	"$B/tests/btfgen/btfload" "$T/tu$v.btf" || fail=1
done
# Relocatable objects keep each type unit in a COMDAT group (SHF_GROUP
# .debug_types / .debug_info sections): the same types as plain -g, the
# struct, the VAR of it and its DATASEC included
for v in 4 5; do
	gcc -g -gdwarf-$v -O1 -c -o "$T/plain$v.o" "$T/a.c" || { echo "FAIL: gcc"; exit 1; }
	gcc -g -gdwarf-$v -O1 -fdebug-types-section -c -o "$T/tu$v.o" "$T/a.c" || { echo "FAIL: gcc"; exit 1; }
	readelf -SW "$T/tu$v.o" | grep -q 'debug_\(types\|info\).* [A-Z]*G[A-Z]* ' ||
		{ echo "FAIL: gcc made no COMDAT type units (DWARF $v, ET_REL)"; exit 1; }
	same_types "plain$v.o" "tu$v.o" "type units of a relocatable object give other types (DWARF $v)"
	grep -q '^struct task size=' "$T/tu$v.o.sig" || { echo "FAIL: struct task missing (DWARF $v, ET_REL)"; fail=1; }
	"$B/btfdump" file "$T/tu$v.o.btf" | grep -q "^\[[0-9]*\] VAR 'init_task'" ||
		{ echo "FAIL: VAR init_task missing (DWARF $v, ET_REL)"; fail=1; }
	"$B/btfcheck" "$T/tu$v.o.btf" >/dev/null 2>&1 || { echo "FAIL: btfcheck rejects the ET_REL BTF (DWARF $v)"; fail=1; }
done
[ $fail -eq 0 ] && echo "PASS: DWARF 4 (.debug_types) and DWARF 5 type units followed by signature"
exit $fail
