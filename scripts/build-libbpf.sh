#!/bin/bash
# Build a newer libbpf (static) from its public source into a cache directory,
# for reference comparisons in tests and benches only (never the default
# install): Debian 12's libbpf 1.1 lacks what newer kernels' tools use, e.g.
# btf__distill_base() (libbpf >= 1.5), against which btfgen's distilled base
# is compared (tests/btfgen/check_pahole_distilled.sh).
#
#   scripts/build-libbpf.sh LIBBPF_GIT [REV]
#
# LIBBPF_GIT is a git repository (clone or bare mirror) of libbpf; REV
# defaults to its HEAD. The result is $LIBBPF_CACHE/libbpf-REV/ (default
# cache /var/cache/btf-bench) with include/bpf/*.h and lib/libbpf.a, printed
# on stdout; an existing build is reused. Needs gcc, make, libelf-dev,
# zlib1g-dev (Debian 12).
set -eu
[ $# -ge 1 ] || { echo "usage: $0 LIBBPF_GIT [REV]" >&2; exit 2; }
LB=$1 REV=${2:-HEAD}
CACHE=${LIBBPF_CACHE:-/var/cache/btf-bench}
COMMIT=$(git --git-dir="$LB" rev-parse -q --verify "$REV^{commit}" 2>/dev/null ||
	git -C "$LB" rev-parse -q --verify "$REV^{commit}") ||
	{ echo "$0: $LB: no revision $REV" >&2; exit 1; }
DEST=$CACHE/libbpf-${COMMIT:0:12}
if [ -f "$DEST/lib/libbpf.a" ]; then
	echo "$DEST"
	exit 0
fi
mkdir -p "$CACHE"
W=$(mktemp -d "$CACHE/libbpf-build.XXXXXX")
trap 'rm -rf "$W"' EXIT
{ git --git-dir="$LB" archive "$COMMIT" 2>/dev/null || git -C "$LB" archive "$COMMIT"; } | tar -x -C "$W"
make -C "$W/src" -j"${JOBS:-2}" BUILD_STATIC_ONLY=1 OBJDIR="$W/obj" DESTDIR="$W/inst" \
	PREFIX=/ LIBDIR=/lib install >"$W/log" 2>&1 ||
	{ tail -30 "$W/log" >&2; echo "$0: build of libbpf $COMMIT failed" >&2; exit 1; }
rm -rf "$DEST.tmp"
mv "$W/inst" "$DEST.tmp"
mv "$DEST.tmp" "$DEST"
echo "$DEST"
