#!/bin/bash
# make install into a DESTDIR, then build a program against the installed
# headers and libraries through pkg-config: shared (with a runtime path),
# the archive in a dynamic program (libbtf-static.pc, no libbtf.so linked),
# and a -static program from `pkg-config --static --libs libbtf`.
. "$(dirname "$0")/../lib.sh"
set -eu
prefix=/opt/libbtf-test
make --no-print-directory -s install B="$B" SAN="${SAN:-}" DESTDIR="$T/root" PREFIX=$prefix >/dev/null
root=$T/root$prefix
export PKG_CONFIG_PATH=$root/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$T/root
grep -q "^prefix=$prefix\$" "$root/lib/pkgconfig/libbtf.pc"
cat >"$T/use.c" <<'C'
#include <libbtf.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
	struct lbtf *b = lbtf_open_vmlinux();
	if (strcmp(lbtf_lib_version(), PC_VERSION)) { printf("lbtf_lib_version %s\n", lbtf_lib_version()); return 1; }
	if (!b) { printf("%s\n", lbtf_errmsg()); return 1; }
	printf("%u %d\n", lbtf_type_cnt(b), lbtf_find_by_name_kind(b, "bpf_flow_keys", LBTF_KIND_STRUCT) > 0);
	lbtf_free(b);
	return 0;
}
C
# (pkg-config prints flags to be split into words)
read -ra cflags <<<"$(pkg-config --cflags libbtf)"
cflags+=("-DPC_VERSION=\"$(pkg-config --modversion libbtf)\"")
# a sanitizer build of the library needs the sanitizer runtimes in the program too
[ "${SAN:-}" = 1 ] && cflags+=("-fsanitize=address,undefined")
libdir=$(pkg-config --variable=libdir libbtf)
# shared, with the runtime path of a non-system prefix (libbtf(3), LINKING)
# shellcheck disable=SC2046
gcc "${cflags[@]}" -o "$T/use-shared" "$T/use.c" $(pkg-config --libs libbtf) -Wl,-rpath,"$libdir"
# the archive in a dynamic program (libbtf-static.pc), and a -static program
# (no static libcjson on Debian: libbtf needs only what Debian ships as .a)
# shellcheck disable=SC2046
gcc "${cflags[@]}" -o "$T/use-archive" "$T/use.c" $(pkg-config --libs libbtf-static)
# shellcheck disable=SC2046
[ "${SAN:-}" = 1 ] || gcc "${cflags[@]}" -static -o "$T/use-static" "$T/use.c" $(pkg-config --static --libs libbtf) \
	2>"$T/static.log" || { cat "$T/static.log"; exit 1; } # (libdw.a's dlopen warning)
out1=$(LD_LIBRARY_PATH=$root/lib "$T/use-shared")
out2=$("$T/use-archive")
if readelf -d "$T/use-archive" | grep -q 'NEEDED.*libbtf'; then
	echo "FAIL: pkg-config --libs libbtf-static links libbtf.so: $(readelf -d "$T/use-archive" | grep NEEDED)"; exit 1
fi
if readelf -d "$T/use-shared" | grep -q "RUNPATH.*$libdir"; then :; else
	echo "FAIL: -Wl,-rpath,\$(pkg-config --variable=libdir libbtf) left no RUNPATH"; exit 1
fi
if [ "${SAN:-}" != 1 ]; then
	out3=$("$T/use-static")
	if [ "$out3" != "$out2" ] || readelf -d "$T/use-static" 2>/dev/null | grep -q NEEDED; then
		echo "FAIL: the -static program: '$out3', $(readelf -d "$T/use-static" | grep NEEDED)"; exit 1
	fi
fi
echo "shared: $out1, archive: $out2"
# (plain tests, not an && list: set -e ignores a failure inside one)
if [ "$out1" != "$out2" ]; then
	echo "FAIL: the shared and the static library give different results"; exit 1
fi
if [ "${out1#* }" != 1 ]; then
	echo "FAIL: bpf_flow_keys not found in vmlinux BTF through the installed library"; exit 1
fi
# only lbtf_* symbols are exported by the shared library
bad=$(nm -D --defined-only "$root/lib/libbtf.so.0" | awk '$2 ~ /[TDBR]/ && $3 !~ /^lbtf_/ {print $3}' | grep -v '^LIBBTF' || true)
[ -z "$bad" ] || { echo "exported non-lbtf symbols: $bad"; exit 1; }
test -x "$root/bin/btfgen" -a -x "$root/bin/btfcheck" -a -x "$root/bin/btfdump"
# the man pages, with the version filled in, render; the completion loads
version=$(sed -n 's/^VERSION *:= *//p' Makefile)
for page in man1/btfgen.1 man1/btfcheck.1 man1/btfdump.1 man8/flowctl.8 man3/libbtf.3; do
	f=$root/share/man/$page
	[ -f "$f" ] || { echo "not installed: share/man/$page"; exit 1; }
	grep -q "btf-tools $version" "$f" || { echo "$page: no version $version in its header"; exit 1; }
	MANWIDTH=80 man -l "$f" 2>/dev/null | grep -q "^NAME" || { echo "$page: man -l does not render it"; exit 1; }
done
for p in btfgen btfcheck btfdump flowctl; do
	bash -c "source '$root/share/bash-completion/completions/$p' && complete -p $p" >/dev/null ||
		{ echo "bash completion for $p not installed"; exit 1; }
done
echo ok
