#!/bin/bash
# Build pahole from its public source into a cache directory, for benches and
# comparisons only (never part of the default install or of make check).
#
#   scripts/build-pahole.sh DWARVES_GIT LIBBPF_GIT [TAG]
#
# DWARVES_GIT and LIBBPF_GIT are git repositories (clones or bare mirrors) of
# pahole's project (dwarves) and of libbpf; TAG defaults to v1.31. The libbpf
# commit is the one dwarves pins as its lib/bpf submodule at TAG. The result is
# $PAHOLE_CACHE/pahole-TAG/bin/pahole (default cache /var/cache/btf-bench),
# printed on stdout; an existing build is reused.
# Needs cmake, gcc, libdw-dev, libelf-dev, zlib1g-dev (all Debian 12).
set -eu
[ $# -ge 2 ] || { echo "usage: $0 DWARVES_GIT LIBBPF_GIT [TAG]" >&2; exit 2; }
DW=$1 LB=$2 TAG=${3:-v1.31}
CACHE=${PAHOLE_CACHE:-/var/cache/btf-bench}
DEST=$CACHE/pahole-$TAG
if [ -x "$DEST/bin/pahole" ]; then
	echo "$DEST/bin/pahole"
	exit 0
fi
for t in cmake gcc git; do
	command -v $t >/dev/null || { echo "$0: $t is needed" >&2; exit 1; }
done
git -C "$DW" rev-parse -q --verify "$TAG^{commit}" >/dev/null ||
	{ echo "$0: $DW: no tag $TAG" >&2; exit 1; }
LIBBPF_COMMIT=$(git -C "$DW" ls-tree "$TAG" lib/bpf | awk '$2 == "commit" { print $3 }')
[ -n "$LIBBPF_COMMIT" ] || { echo "$0: $DW $TAG: no lib/bpf submodule commit" >&2; exit 1; }
git -C "$LB" cat-file -e "$LIBBPF_COMMIT^{commit}" ||
	{ echo "$0: $LB: lacks libbpf commit $LIBBPF_COMMIT that $TAG pins" >&2; exit 1; }

mkdir -p "$CACHE"
W=$(mktemp -d "$CACHE/pahole-build.XXXXXX")
trap 'rm -rf "$W"' EXIT
mkdir "$W/src"
git -C "$DW" archive "$TAG" | tar -x -C "$W/src"
rm -rf "$W/src/lib/bpf"
mkdir "$W/src/lib/bpf"
git -C "$LB" archive "$LIBBPF_COMMIT" | tar -x -C "$W/src/lib/bpf"
cmake -S "$W/src" -B "$W/build" -DCMAKE_BUILD_TYPE=Release -D__LIB=lib \
	-DCMAKE_INSTALL_PREFIX="$W/inst" -DCMAKE_INSTALL_RPATH="$DEST/lib" >"$W/log" 2>&1 &&
	make -C "$W/build" -j"${JOBS:-2}" >>"$W/log" 2>&1 &&
	make -C "$W/build" install >>"$W/log" 2>&1 ||
	{ tail -30 "$W/log" >&2; echo "$0: build of pahole $TAG failed" >&2; exit 1; }
# the binary finds its libdwarves.so through the rpath $DEST/lib set above
rm -rf "$DEST.tmp"
mv "$W/inst" "$DEST.tmp"
mv "$DEST.tmp" "$DEST"
echo "$DEST/bin/pahole"
