#!/bin/bash
# Build the newest bpftool from its public source into a cache directory, for
# the format c comparison test (tests/dump_c/check_dump_c_newest.sh) and
# benches only (never part of the default install or of make check's build).
#
#   scripts/build-bpftool.sh [BPFTOOL_GIT LIBBPF_GIT] [REF]
#
# BPFTOOL_GIT and LIBBPF_GIT are git repositories (clones or bare mirrors) of
# github.com/libbpf/bpftool and github.com/libbpf/libbpf; without them both are
# cloned from GitHub. REF (default: the mirror's HEAD) is the bpftool commit or
# tag; the libbpf commit is the one bpftool pins as its libbpf submodule there.
# The result is $BPFTOOL_CACHE/bpftool-<commit>/bpftool (default cache
# /var/cache/btf-bench), printed on stdout, and a link
# $BPFTOOL_CACHE/bpftool-newest to it; an existing build is reused.
# Built without BPF skeletons, LLVM or libbfd (not needed by `btf dump`).
# Needs gcc, make, git, libelf-dev, zlib1g-dev (all Debian 12).
set -eu
BT=${1:-} LB=${2:-} REF=${3:-HEAD}
CACHE=${BPFTOOL_CACHE:-/var/cache/btf-bench}
for t in gcc make git; do
	command -v $t >/dev/null || { echo "$0: $t is needed" >&2; exit 1; }
done
mkdir -p "$CACHE"
W=$(mktemp -d "$CACHE/bpftool-build.XXXXXX")
trap 'rm -rf "$W"' EXIT
if [ -z "$BT" ]; then
	git clone -q --bare https://github.com/libbpf/bpftool "$W/bpftool.git"
	git clone -q --bare https://github.com/libbpf/libbpf "$W/libbpf.git"
	BT=$W/bpftool.git LB=$W/libbpf.git
fi
[ -n "$LB" ] || { echo "usage: $0 [BPFTOOL_GIT LIBBPF_GIT] [REF]" >&2; exit 2; }
COMMIT=$(git -C "$BT" rev-parse -q --verify "$REF^{commit}") ||
	{ echo "$0: $BT: no commit $REF" >&2; exit 1; }
DEST=$CACHE/bpftool-$COMMIT
if [ -x "$DEST/bpftool" ]; then
	ln -sfn "$DEST" "$CACHE/bpftool-newest"
	echo "$DEST/bpftool"
	exit 0
fi
LIBBPF_COMMIT=$(git -C "$BT" ls-tree "$COMMIT" libbpf | awk '$2 == "commit" { print $3 }')
[ -n "$LIBBPF_COMMIT" ] || { echo "$0: $BT $REF: no libbpf submodule commit" >&2; exit 1; }
git -C "$LB" cat-file -e "$LIBBPF_COMMIT^{commit}" 2>/dev/null ||
	{ echo "$0: $LB: lacks libbpf commit $LIBBPF_COMMIT that bpftool pins" >&2; exit 1; }

mkdir "$W/src"
git -C "$BT" archive "$COMMIT" | tar -x -C "$W/src"
rm -rf "$W/src/libbpf"
mkdir "$W/src/libbpf"
git -C "$LB" archive "$LIBBPF_COMMIT" | tar -x -C "$W/src/libbpf"
# feature-clang-bpf-co-re=0: no skeletons (they need a BPF-capable clang and
# a vmlinux.h); SKIP_LLVM/SKIP_LIBBFD: no JIT disassembler
make -C "$W/src/src" -j"${JOBS:-2}" feature-clang-bpf-co-re=0 SKIP_LLVM=1 SKIP_LIBBFD=1 \
	>"$W/log" 2>&1 ||
	{ tail -30 "$W/log" >&2; echo "$0: build of bpftool $COMMIT failed" >&2; exit 1; }
rm -rf "$DEST.tmp"
mkdir "$DEST.tmp"
cp "$W/src/src/bpftool" "$DEST.tmp/"
echo "$COMMIT libbpf $LIBBPF_COMMIT" >"$DEST.tmp/SOURCE"
mv "$DEST.tmp" "$DEST"
ln -sfn "$DEST" "$CACHE/bpftool-newest"
echo "$DEST/bpftool"
