#!/bin/bash
# btfgen checks a --base for what its code relies on only (type ids, string
# offsets, no loop of references), not with the kernel-exact verifier, since
# pahole-style runs read the vmlinux BTF once per module. A corrupt base
# must still end cleanly: 120 bases, each a good one with a few words of its
# type section overwritten (ids near the end and far past it, offsets,
# kinds, vlens, random bits; seeded, so each run tries the same ones), given
# to btfgen and to its pahole command line over a relocatable object. Each
# run ends with exit 0 (an output btfgen verified over that base) or 4 with
# one stderr line naming a file, within 20 s, never by a signal or a
# sanitizer report; both outcomes occur. The good base still gives the same
# split BTF as before the corruption campaign.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

gcc -g -O2 -c -o "$T/base.o" -x c - <<'C' || exit 1
struct list { struct list *next, *prev; };
struct inode { unsigned long ino; struct list l; const char *name; int (*op)(struct inode *, int); };
enum mode { M_A, M_B = 7 };
typedef struct inode inode_t;
struct inode root; enum mode m; inode_t *cur; volatile int flags[4];
int get(struct inode *i) { return (int)i->ino + m; }
C
gcc -g -O2 -c -o "$T/mod.o" -x c - <<'C' || exit 1
struct list { struct list *next, *prev; };
struct inode { unsigned long ino; struct list l; const char *name; int (*op)(struct inode *, int); };
typedef struct inode inode_t;
struct mine { inode_t *i; struct list l; long v[3]; };
struct mine one;
long mod_fn(struct mine *p, int k) { return p->v[k] + (long)p->i->ino; }
C
"$B/btfgen" -o "$T/base.btf" "$T/base.o" || exit 1
"$B/btfgen" --base "$T/base.btf" -o "$T/good.btf" "$T/mod.o" || { echo "FAIL: btfgen over the good base"; exit 1; }
"$B/btfcheck" --base "$T/base.btf" "$T/good.btf" >/dev/null || bad "btfcheck refuses the split BTF over the good base"

python3 tests/btfgen/corrupt_base.py "$T" || exit 1

ok=0 refused=0
for f in "$T"/b[0-9]*.btf; do
	for mode in btfgen pahole; do
		rm -f "$T/out.btf"
		if [ $mode = btfgen ]; then
			timeout 20 "$B/btfgen" --base "$f" -o "$T/out.btf" "$T/mod.o" >"$T/stdout" 2>"$T/err"
		else
			timeout 20 "$B/btfgen-pahole" -J -j1 --btf_base "$f" --btf_encode_detached="$T/out.btf" \
				"$T/mod.o" >"$T/stdout" 2>"$T/err"
		fi
		rc=$?
		if [ -s "$T/err" ] && grep -q "Sanitizer\|runtime error" "$T/err"; then
			bad "$(basename "$f") ($mode): sanitizer: $(head -c 300 "$T/err")"
		elif [ $rc -eq 0 ]; then
			ok=$((ok + 1))
			[ -s "$T/out.btf" ] || bad "$(basename "$f") ($mode): exit 0 without an output"
		elif [ $rc -eq 4 ]; then
			refused=$((refused + 1))
			if [ "$(wc -l <"$T/err")" -ne 1 ] || ! grep -q "$f\|$T/mod.o" "$T/err"; then
				bad "$(basename "$f") ($mode): exit 4 without one line naming a file: $(head -c 300 "$T/err")"
			fi
			[ -e "$T/out.btf" ] && bad "$(basename "$f") ($mode): refused, but left an output"
		else
			bad "$(basename "$f") ($mode): exit $rc (124: timeout, >128: signal): $(head -c 300 "$T/err")"
		fi
	done
done
echo "corrupt bases: $ok runs with an output, $refused refused"
[ $ok -gt 0 ] || bad "no corrupt base was accepted: the campaign tries nothing past the check"
[ $refused -gt 0 ] || bad "no corrupt base was refused"
"$B/btfgen" --base "$T/base.btf" -o "$T/again.btf" "$T/mod.o" && cmp -s "$T/good.btf" "$T/again.btf" ||
	bad "the good base gives another split BTF"
[ $fail -eq 0 ] && echo "PASS: btfgen ends cleanly over 120 corrupt bases (exit 0 or 4 naming the file)"
exit $fail
