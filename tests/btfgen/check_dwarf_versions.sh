#!/bin/bash
# The DIE reader on every DWARF flavour gcc writes: versions 2 to 5 and the
# 64-bit format (8-byte offsets) give the same types as gcc's default.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=same_types.sh
. "$(dirname "$0")/same_types.sh"
cat >"$T/a.c" <<'C'
struct list { struct list *next, *prev; };
enum state { IDLE, BUSY = 5, GONE = -1, BIG = 70000 };
union val { long l; double d; struct list *p; unsigned char raw[300]; };
struct task { struct list node; enum state st; union val v[4][3]; struct task *parent;
	      struct { int a : 3, b : 5; } bits; const volatile char *name; };
typedef struct task task_t;
task_t init_task;
int run(task_t *t, union val *v, ...) { return t->st + (int)v->l; }
int main(void) { return run(&init_task, init_task.v[0]); }
C
fail=0
gcc -g -O1 -o "$T/default" "$T/a.c" || { echo "FAIL: gcc"; exit 1; }
for v in "-gdwarf-2 -gstrict-dwarf" -gdwarf-3 -gdwarf-4 -gdwarf-5 "-gdwarf-5 -gdwarf64" "-gdwarf-4 -gdwarf64"; do
	name=$(echo "$v" | tr -d ' -')
	# shellcheck disable=SC2086
	gcc -g $v -O1 -o "$T/$name" "$T/a.c" || { echo "FAIL: gcc $v"; exit 1; }
	same_types default "$name" "gcc $v gives other types"
done
grep -q '^struct task size=' "$T/default.sig" || { echo "FAIL: struct task missing"; fail=1; }
[ $fail -eq 0 ] && echo "PASS: DWARF 2, 3, 4, 5 and 64-bit DWARF give the same types"
exit $fail
