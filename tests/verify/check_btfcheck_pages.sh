#!/bin/bash
# btfcheck's musl build is laid out to touch few pages in a fresh process
# (a CI gate runs it once per object; each first touch of a page is a page
# fault of ~15-25 us on the virtual machines measured, and a file page's
# fault maps its 64 KiB window): the headers, code and constants in one
# mapping (-z noseparate-code), no unwind tables (.eh_frame: 22 KB between
# the code and its data), no .data.rel.ro (position-dependent code: tables
# of pointers are constants, not data written at start), no RELRO (which
# nothing applies in a static musl program), and no pthread key
# (libbtf/util/keep.c in a one-thread build: musl's key table and the main
# thread's values were 2 KB of .bss). The Makefile's MUSL_CFLAGS and
# MUSL_LDFLAGS; a glibc build (MUSL=0, SAN=1) is not checked.
. "$(dirname "$0")/../lib.sh"
BC=$B/btfcheck
[ -x "$BC" ] || { echo "FAIL: $BC missing (build first)"; exit 1; }
need_tools nm readelf
syms=$(nm "$BC") || { echo "FAIL: nm $BC (no symbol table?)"; exit 1; }
grep -q ' T __init_libc$' <<<"$syms" || { echo "ok: $BC is linked with glibc: nothing to check"; exit 0; }
phdrs=$(readelf -lW "$BC") || { echo "FAIL: readelf -l $BC"; exit 1; }
secs=$(readelf -SW "$BC") || { echo "FAIL: readelf -S $BC"; exit 1; }
# loadable segments: one read-execute from the file's start (headers, code,
# constants), one read-write (data, .bss)
loads=$(grep -c '^ *LOAD ' <<<"$phdrs")
rx=$(grep '^ *LOAD ' <<<"$phdrs" | grep -c ' R E ')
first=$(grep -m1 '^ *LOAD ' <<<"$phdrs" | awk '{print $2}')
[ "$loads" = 2 ] && [ "$rx" = 1 ] && [ "$((first))" = 0 ] ||
	bad "$BC: $loads LOAD segments ($rx executable, the first at file offset $first), want 2: code with headers and constants, data: $(grep '^ *LOAD ' <<<"$phdrs" | tr -s ' ' | head -4)"
# no RELRO: its alignment (the end of .data.rel.ro on a page boundary) put
# musl's few bytes of .data.rel.ro alone on a page before .data; without
# it the linker places the data on as few pages as it can
grep -q '^ *GNU_RELRO ' <<<"$phdrs" && bad "$BC has a RELRO segment (linked without -z norelro?)"
grep -q ' \.eh_frame ' <<<"$secs" && bad "$BC has unwind tables (.eh_frame): built without -fno-asynchronous-unwind-tables?"
# (musl's own objects may bring a few bytes)
relro=$(sed -n 's/^ *\[ *[0-9]*\] *\.data\.rel\.ro  *[A-Z]*  *[0-9a-f]*  *[0-9a-f]*  *\([0-9a-f]*\) .*/0x\1/p' <<<"$secs")
[ -z "$relro" ] || [ "$((relro))" -le 256 ] ||
	bad "$BC: .data.rel.ro of $((relro)) bytes (position-independent code?), want none"
grep -q " [TtW] pthread_key_create\$" <<<"$syms" &&
	bad "$BC links pthread_key_create: util/keep.c needs no key with one thread"
[ $fail = 0 ] && echo "ok: $BC: $loads LOAD segments (code from offset 0), no RELRO, no .eh_frame, .data.rel.ro $((${relro:-0})) bytes, no pthread key"
exit $fail
