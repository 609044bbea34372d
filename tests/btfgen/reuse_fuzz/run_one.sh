#!/bin/bash
# run_one.sh DIR: build DIR/u*.c (one compiler word per unit in DIR/cc) into
# DIR/lib.so and compare btfgen with reuse (-j 3 and -j 1) against the exact
# conversion (--features default,-reuse): type count, btfsig lines, dump
# lines, type-graph fingerprint, and -j1/-j3 bytes. Writes DIR/result.
# Exit 0 same, 1 different (or btfgen failed), 2 the program did not build,
# 3 both conversions refused it alike (e.g. BTF the kernel would reject).
# B: the build directory (default: the checkout's build/).
here=$(cd "$(dirname "$0")" && pwd)
B=${B:-$here/../../../build}
D=$1
cd "$D" || exit 2
# shellcheck source=../reuse_compare.sh
. "$here/../reuse_compare.sh" # reuse_convert, reuse_same, ON, OFF
mapfile -t CC <cc
objs=() i=0
for f in u*.c; do
	o=${f%.c}.o
	case ${CC[$i]} in
	gcc0) cc="gcc -g -O0" ;;
	gcc2) cc="gcc -g -O2" ;;
	clang0) cc="clang-16 -g -O0" ;;
	clang2) cc="clang-16 -g -O2" ;;
	gccd4) cc="gcc -gdwarf-4 -O0" ;;
	gcctu) cc="gcc -gdwarf-4 -fdebug-types-section -O0" ;;
	clangtu) cc="clang-16 -gdwarf-4 -fdebug-types-section -O0" ;;
	gccse) cc="gcc -g -O0 -fshort-enums" ;;
	gccuc) cc="gcc -g -O0 -funsigned-char" ;;
	gccu) cc="gcc -g -O0 -fno-eliminate-unused-debug-types" ;;
	*) echo "unknown compiler word '${CC[$i]}'" >result; exit 2 ;;
	esac
	$cc -fPIC -w -c -o "$o" "$f" || { echo "build fail $f" >result; exit 2; }
	objs+=("$o")
	i=$((i + 1))
done
gcc -shared -o lib.so "${objs[@]}" || { echo "build fail lib.so" >result; exit 2; }
if ! reuse_convert . off lib.so "$OFF" 3 >conv.log; then
	# the exact conversion refused the input (BTF the kernel would reject):
	# the reuse must refuse it alike; that is no difference, and no pass
	if ! "$B/btfgen" -j 3 --features "$ON" -o on.btf lib.so 2>on.log &&
		[ "$(tail -1 on.log)" = "$(tail -1 off.log)" ]; then
		echo "both refused: $(tail -1 off.log)" >result
		exit 3
	fi
	echo "DIFF: btfgen failed" >result
	exit 1
fi
reuse_convert . on lib.so "$ON" 3 >>conv.log && reuse_convert . on1 lib.so "$ON" 1 >>conv.log ||
	{ echo "DIFF: btfgen failed" >result; exit 1; }
r=""
cmp -s on.btf on1.btf || r="$r j1-vs-j3-bytes;"
reuse_same . off on "reuse" >same.log || r="$r $(grep -c FAIL same.log) checks;"
if [ -n "$r" ]; then echo "DIFF:$r" >result; exit 1; fi
echo same >result
