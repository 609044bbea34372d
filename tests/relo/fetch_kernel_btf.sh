#!/bin/bash
# A real kernel's BTF for the CO-RE tests (tests/relo/lib.sh's
# real_targets): the .BTF section of a Debian kernel debug package's vmlinux
# (pahole's, as that kernel has it in /sys/kernel/btf/vmlinux), kept as a
# raw BTF file (a few MB: the package itself is not kept).
#   tests/relo/fetch_kernel_btf.sh VERSION   e.g. 6.12.118+deb12-cloud-amd64
# Downloads linux-image-VERSION-dbg with apt-get download (300 MB to 1 GB)
# into a temporary directory; the result is $CACHE/kernel-btf/VERSION.btf
# (default cache /var/cache/btf-bench), printed on stdout; an existing one
# is reused. Needs apt-get, dpkg-deb and objcopy.
set -eu
[ $# = 1 ] || { echo "usage: $0 VERSION" >&2; exit 2; }
V=$1
CACHE=${BTF_BENCH_CACHE:-/var/cache/btf-bench}
OUT=$CACHE/kernel-btf/$V.btf
if [ -s "$OUT" ]; then
	echo "$OUT"
	exit 0
fi
mkdir -p "$CACHE/kernel-btf"
W=$(mktemp -d "$CACHE/kernel-btf/fetch.XXXXXX")
trap 'rm -rf "$W"' EXIT
(cd "$W" && apt-get download "linux-image-$V-dbg" >&2)
dpkg-deb --fsys-tarfile "$W"/linux-image-"$V"-dbg_*.deb |
	tar -x -C "$W" "./usr/lib/debug/boot/vmlinux-$V"
objcopy -O binary --only-section=.BTF "$W/usr/lib/debug/boot/vmlinux-$V" "$W/btf"
[ -s "$W/btf" ] || { echo "$0: vmlinux-$V has no .BTF" >&2; exit 1; }
mv "$W/btf" "$OUT"
echo "$OUT"
