#!/bin/bash
# btfcheck's musl build allocates from its own heap (btfcheck/musl/heap.c)
# and has one thread: its link holds none of musl's malloc and no
# pthread_create (the heap has no lock), libbtf's thread-locals are plain
# statics (no TLS segment: libbtf/util/tls.h), and a check of many objects
# in one command maps no anonymous memory (the heap's first region is in
# .bss, musl's thread block its built-in one) and never gives memory back
# (musl's malloc mapped a group per size class and unmapped emptied ones:
# an mmap, an munmap and fresh page faults per block). The glibc build
# (MUSL=0, SAN=1) has libc's malloc.
. "$(dirname "$0")/../lib.sh"
BC=$B/btfcheck
[ -x "$BC" ] && [ -e "$B/corpus/maps_tc.bpf.o" ] || { echo "FAIL: $BC or $B/corpus missing (build first)"; exit 1; }
need_tools strace nm readelf
syms=$(nm "$BC") || { echo "FAIL: nm $BC (no symbol table?)"; exit 1; }
# musl's start (a symbol, not debug info: a build without -g is musl's too)
if ! grep -q ' T __init_libc$' <<<"$syms"; then
	grep -q ' T btfcheck_heap_alloc$' <<<"$syms" && bad "$BC is linked with glibc but holds the musl build's heap"
	[ $fail = 0 ] && echo "ok: $BC is linked with glibc, with glibc's malloc"
	exit $fail
fi
for s in malloc free realloc calloc btfcheck_heap_alloc; do
	grep -q " T $s\$" <<<"$syms" || bad "$BC: no $s of its own"
done
# mallocng's own functions (src/malloc/mallocng/), and the internal entry
# points of musl's functions that allocate for themselves (lite_malloc.c's
# brk allocator, a weak malloc among them: see btfcheck/musl/malloc.c)
for s in alloc_slot __malloc_alloc_meta __malloc_context __libc_malloc_impl __libc_malloc \
	__libc_calloc __libc_free __simple_malloc; do
	grep -q " [TtWwDdBb] $s\$" <<<"$syms" && bad "$BC links musl's malloc ($s)"
done
grep -q " [TtW] pthread_create\$" <<<"$syms" && bad "$BC links pthread_create: the heap has no lock"
# libbtf's thread-locals are plain statics in a one-thread build (util/tls.h)
readelf -lW "$BC" | grep -q '^ *TLS ' && bad "$BC has a TLS segment (built without LBTFI_ONE_THREAD?)"
# the corpus objects (small: read into one buffer) and a large one (mapped)
objs=("$B"/corpus/*.bpf.o "$B/bpf/bpf_flow.o")
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -e trace=mmap,munmap,mremap,brk -o "$T/st" "$BC" "${objs[@]}" >"$T/out" 2>"$T/err"
rc=$?
# (0: all load; 1: one is refused, link_a.bpf.o alone)
[ $rc -le 1 ] && [ "$(wc -l <"$T/out")" -eq ${#objs[@]} ] ||
	bad "btfcheck ${objs[*]}: exit $rc, $(wc -l <"$T/out") verdicts: $(head -c 300 "$T/err")"
anon=$(grep -c 'MAP_ANONYMOUS' "$T/st")
# none: the heap's first region is in .bss, and with no TLS segment musl's
# thread block is its built-in one
[ "$anon" -eq 0 ] || bad "${#objs[@]} objects: $anon anonymous mappings, want none: $(grep ANONYMOUS "$T/st" | head -5)"
grep -q '^munmap(\|^mremap(\|^brk(' "$T/st" && bad "${#objs[@]} objects: memory given back or grown: $(grep '^munmap(\|^mremap(\|^brk(' "$T/st" | head -3)"
[ $fail = 0 ] && echo "ok: $BC has its own heap, no musl malloc, no threads; ${#objs[@]} objects: $anon anonymous mappings, no munmap"
exit $fail
