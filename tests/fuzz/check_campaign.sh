#!/bin/bash
# The adversarial campaign of issue 13 as a test (tests/fuzz/campaign.py):
# mutants of a seed corpus built here (raw BTF, a base and split BTF over
# it, gcc/clang objects and a shared library with DWARF 4/5 and type units,
# a clang BPF object with .BTF) go through btfgen, btfdump and btfcheck for
# CAMPAIGN_SECONDS (60 in make check, 600 under make fuzz) with a fixed
# seed (CAMPAIGN_SEED, default 1). Fails on any finding: a sanitizer
# report (SAN=1 builds), a signal, a hang, an undocumented exit status,
# stdout on failure, an error line naming no input, a changed input, a
# temporary file left, or BTF from btfgen that btfcheck rejects. Findings
# are kept in $B/campaign/run/found/ (mutant and what happened).
. "$(dirname "$0")/../lib.sh"
cd "$(dirname "$0")/../.." || exit 1
secs=${CAMPAIGN_SECONDS:-60}
W=$B/campaign
S=$W/seeds
rm -rf "$W"
mkdir -p "$S" "$W/run"
cat >"$W/a.c" <<'C'
struct list { struct list *next, *prev; };
enum state { IDLE, BUSY = 5, GONE = -1 };
union val { long l; double d; struct list *p; };
struct task { struct list node; enum state st; union val v[4]; struct task *parent;
	      struct { int a : 3, b : 5; } bits; char name[16]; const volatile int *cv; };
typedef struct task task_t;
typedef int (*handler_t)(task_t *, union val *);
task_t init_task;
handler_t handlers[2];
static int counter;
int run(task_t *t, union val *v) { return t->st + (int)v->l + counter++; }
C
cat >"$W/b.c" <<'C'
struct holder { int a; long b; unsigned char flags : 3; };
struct holder h;
int get(struct holder *p) { return p->a + p->flags; }
C
gcc -g -O1 -c -o "$S/gcc5.o" "$W/a.c" &&
	gcc -g -gdwarf-4 -O1 -c -o "$S/gcc4.o" "$W/a.c" &&
	clang-16 -g -O1 -c -o "$S/clang.o" "$W/a.c" &&
	gcc -g -O1 -fdebug-types-section -c -o "$S/tu5.o" "$W/b.c" &&
	gcc -g -gdwarf-4 -O1 -fdebug-types-section -c -o "$S/tu4.o" "$W/b.c" &&
	gcc -g -O1 -shared -fPIC -o "$S/lib.so" "$W/b.c" &&
	bpf_cc -g -O2 "${BPF_INC[@]}" -c -o "$S/bpf.btf.o" tests/btfgen/maps.bpf.c ||
	{ echo "FAIL: building the seed corpus"; exit 1; }
"$B/btfgen" -o "$S/base.btf" "$S/gcc5.o" &&
	"$B/btfgen" -o "$S/clang.btf" "$S/clang.o" &&
	"$B/btfgen" -o "$S/tu.btf" "$S/tu5.o" &&
	"$B/btfgen" --base "$S/base.btf" -o "$S/split.btf" "$S/tu4.o" ||
	{ echo "FAIL: btfgen on the seeds"; exit 1; }
for f in base clang tu; do
	"$B/btfcheck" "$S/$f.btf" >/dev/null 2>&1 || { echo "FAIL: seed $f.btf rejected"; fail=1; }
done
"$B/btfcheck" --base "$S/base.btf" "$S/split.btf" >/dev/null 2>&1 || { echo "FAIL: seed split.btf rejected"; fail=1; }
python3 tests/fuzz/campaign.py "$B" "$S" "$W/run" "$secs" "${CAMPAIGN_SEED:-1}" || fail=1
if [ -d "$W/run/found" ]; then
	echo "findings in $W/run/found:"
	for f in "$W"/run/found/*.txt; do head -n 3 "$f"; done
fi
[ $fail -eq 0 ] && echo "PASS: campaign found nothing"
exit $fail
