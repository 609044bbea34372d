#!/bin/bash
# btfgen's pahole command line (btfgen-pahole, for kernel builds) and kernel
# module output:
#  - --version passes the kernel's scripts/pahole-version.sh rule (vM.N ->
#    a number >= 116), --numeric_version agrees;
#  - each pahole option gives the same bytes as btfgen with the features it
#    maps to (btfgen(1), PAHOLE COMPATIBILITY), in a detached file and in place;
#  - pahole's feature rules: no list = per-CPU vars, tags, enum64, no floats;
#    the first --btf_features clears them; unknown names are ignored except
#    under --btf_features_strict;
#  - unknown pahole options and non-encoding modes fail with exit 2;
#  - a module (relocatable with .gnu.linkonce.this_module): split BTF over
#    the given base, VARs for .data..percpu only, no DATASEC for .modinfo,
#    __param, __versions, .gnu.linkonce.this_module; one without per-CPU data
#    has no DATASEC at all; btfcheck --base accepts it.
. "$(dirname "$0")/../lib.sh"
P=$B/btfgen-pahole BTFGEN=$B/btfgen
command -v gcc >/dev/null || { echo "SKIP: gcc not installed"; exit 77; }
# kinds FILE [--base BASE]: "KIND name" of each named type
kinds() { "$B/btfdump" file "$@" | sed -n "s/^\[[0-9]*\] \([A-Z_0-9]*\) '\([^']*\)'.*/\1 \2/p" | sort; }

# --version as the kernel reads it
v=$("$P" --version)
num=$(echo "$v" | sed -E 's/v([0-9]+)\.([0-9]+)/\1\2/')
[[ "$num" =~ ^[0-9]+$ ]] && [ "$num" -ge 116 ] || bad "--version '$v' is not a pahole version the kernel accepts"
[ "$("$P" --numeric_version)" = "$num" ] || bad "--numeric_version disagrees with --version"
# btfgen itself takes pahole's command line when given -J
[ "$("$BTFGEN" -J --version)" = "$v" ] || bad "btfgen -J --version is not pahole's"

# a user-space program with a float, a 64-bit enum and global variables (the
# linker merges its .data..percpu into .data: per-CPU VARs are seen in the
# module below)
cat >"$T/u.c" <<'EOF'
enum big { BIG = 0x100000000ULL };
struct s { double d; enum big e; };
int __attribute__((section(".data..percpu"))) pcpu_counter = 1;
struct s global_s = { 1.0, BIG };
int use(struct s *p) { return (int)p->d + pcpu_counter; }
int main(void) { return use(&global_s); }
EOF
gcc -g -O1 -o "$T/u" "$T/u.c" || { echo "FAIL: gcc"; exit 1; }

# same_bytes "PAHOLE OPTIONS" "BTFGEN FEATURES"
same_bytes() {
	rm -f "$T/p.btf" "$T/g.btf"
	# shellcheck disable=SC2086
	"$P" -J $1 --btf_encode_detached="$T/p.btf" "$T/u" || { bad "pahole options '$1' failed"; return; }
	"$BTFGEN" -j1 --style pahole --features "$2" -o "$T/g.btf" "$T/u" || { bad "btfgen --style pahole --features $2 failed"; return; }
	cmp -s "$T/p.btf" "$T/g.btf" || bad "pahole options '$1' differ from btfgen --features $2"
}
base=func,dedup,reuse
same_bytes "" "$base,percpu_var,decl_tag,type_tag,enum64"
same_bytes "-j --btf_gen_floats --lang_exclude=rust" "$base,percpu_var,decl_tag,type_tag,enum64,float"
same_bytes "-j2 --skip_encoding_btf_vars --skip_encoding_btf_enum64" "$base,decl_tag,type_tag"
same_bytes "--btf_features=var,float" "$base,percpu_var,float"
same_bytes "--btf_features=var --btf_features=global_var,type_tag" "$base,var,type_tag"
same_bytes "--btf_features=global_var" "$base"
same_bytes "--btf_gen_floats --btf_features=enum64" "$base,enum64"
same_bytes "--btf_features=encode_force,reproducible_build,some_future_feature" "$base"

# what the options mean, seen in the output
"$P" -J --btf_encode_detached="$T/a.btf" "$T/u" && kinds "$T/a.btf" >"$T/a.k"
grep -q '^FLOAT ' "$T/a.k" && bad "FLOAT without --btf_gen_floats (pahole encodes none)"
grep -q "^VAR global_s" "$T/a.k" && bad "global variable encoded without global_var"
"$P" -J --btf_gen_floats --btf_encode_detached="$T/b.btf" "$T/u" && kinds "$T/b.btf" >"$T/b.k"
grep -q '^FLOAT double' "$T/b.k" || bad "--btf_gen_floats: no FLOAT double"
"$P" -J --btf_features=var,global_var --btf_encode_detached="$T/c.btf" "$T/u" && kinds "$T/c.btf" >"$T/c.k"
grep -q "^VAR global_s" "$T/c.k" || bad "global_var: global_s not encoded"

# in place, as link-vmlinux.sh runs it
cp "$T/u" "$T/u2"
"$P" -J -j --btf_gen_floats "$T/u2" || bad "-J in place failed"
"$BTFGEN" --style pahole --features "$base,percpu_var,decl_tag,type_tag,enum64,float" -o "$T/d.btf" "$T/u"
objcopy --dump-section .BTF="$T/u2.btf" "$T/u2" "$T/u2.copy" && cmp -s "$T/u2.btf" "$T/d.btf" ||
	bad "-J in place: the .BTF section differs from the detached encoding"

# refusals: exit 2 and a message naming the option
refuse() {
	local want=$1
	shift
	"$P" "$@" >"$T/out" 2>"$T/err"
	[ $? = 2 ] || bad "'$*' did not exit 2"
	grep -q -- "$want" "$T/err" || bad "'$*': message lacks '$want': $(cat "$T/err")"
}
refuse "'-C'" -C task_struct "$T/u"
refuse "'--bogus'" -J --bogus "$T/u"
refuse "only BTF encoding" "$T/u"
refuse "strict" -J --btf_features_strict=var,no_such "$T/u"
refuse "excluding 'c'" -J --lang_exclude=c "$T/u"
refuse "distilled-base makes a .BTF.base section for split BTF" -J --btf_features=distilled_base "$T/u"
refuse "one input" -J "$T/u" "$T/u"

# issue 28: "all" without a base works, in place and detached (every feature
# btfgen implements; distilled_base needs a base and is left out), and an
# input named like an option after "--" is the input
cp "$T/u" "$T/u_all"
"$P" -J --btf_features=all "$T/u_all" 2>"$T/err" ||
	bad "-J --btf_features=all in place without a base: $(cat "$T/err")"
"$B/btfdump" file "$T/u_all" >/dev/null 2>&1 || bad "-J --btf_features=all: no .BTF written"
same_bytes "--btf_features=all" "$base,var,float,decl_tag,type_tag,enum64,optimized_func,consistent_func,decl_tag_kfuncs,attributes,true_signature,abi_func"
same_bytes "--btf_gen_all" "$base,var,float,decl_tag,type_tag,enum64,optimized_func,consistent_func,decl_tag_kfuncs,attributes,true_signature,abi_func"
absb=$(cd "$B" && pwd)
for p in btfgen btfgen-pahole; do
	cp "$T/u" "$T/-u.o"
	(cd "$T" && "$absb/$p" -J -- -u.o) 2>"$T/err" ||
		bad "$p -J -- -u.o: $(cat "$T/err")"
	"$B/btfdump" file "$T/-u.o" >/dev/null 2>&1 || bad "$p -J -- -u.o: no .BTF written into -u.o"
done

# a module: relocatable object with the sections kbuild gives a .ko
cat >"$T/m.c" <<'EOF'
struct module { char name[56]; int refcnt; };
struct kernel_param { const char *name; int perm; };
struct module __attribute__((section(".gnu.linkonce.this_module"))) __this_module = { "m", 1 };
const char __attribute__((section(".modinfo"))) mod_license[] = "license=GPL";
static int param_val;
const struct kernel_param __attribute__((section("__param"))) param_p = { "val", 0644 };
const char __attribute__((section("__versions"))) versions[64] = "x";
#ifdef PERCPU
int __attribute__((section(".data..percpu"))) m_pcpu_hits;
#endif
int m_init(void) { return param_val; }
EOF
gcc -g -O1 -c -o "$T/m.ko" "$T/m.c" && gcc -g -O1 -DPERCPU -c -o "$T/mp.ko" "$T/m.c" || { echo "FAIL: gcc -c"; exit 1; }
for m in m mp; do
	# as Makefile.modfinal runs it: in place, over the image's BTF
	"$P" -J -j --btf_gen_floats --lang_exclude=rust --btf_base "$T/u2" "$T/$m.ko" ||
		{ bad "$m.ko: -J --btf_base failed"; continue; }
	kinds "$T/$m.ko" --base "$T/u2" >"$T/$m.k"
	grep -q "^STRUCT module" "$T/$m.k" || bad "$m.ko: no struct module"
	grep -q "^STRUCT s$" "$T/$m.k" && bad "$m.ko: the base's struct s repeated (not split BTF)"
	grep "^DATASEC" "$T/$m.k" | grep -v "DATASEC .data..percpu" && bad "$m.ko: DATASECs other than .data..percpu"
	"$B/btfcheck" --base "$T/u2" "$T/$m.ko" >/dev/null 2>&1 || bad "$m.ko: btfcheck --base rejects it"
	# btfgen's defaults do the same for a module
	"$BTFGEN" -o "$T/$m.def.btf" --base "$T/u2" "$T/$m.ko" && kinds "$T/$m.def.btf" --base "$T/u2" |
		grep "^DATASEC" | grep -v "DATASEC .data..percpu" && bad "$m.ko: btfgen's default encodes non-per-CPU DATASECs"
done
grep -q "^DATASEC" "$T/m.k" && bad "m.ko without per-CPU data has a DATASEC"
grep -q "^DATASEC .data..percpu" "$T/mp.k" && grep -q "^VAR m_pcpu_hits" "$T/mp.k" ||
	bad "mp.ko: no .data..percpu DATASEC with m_pcpu_hits"

[ $fail = 0 ] && echo "PASS: pahole command line and module output"
exit $fail
