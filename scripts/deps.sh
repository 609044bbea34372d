#!/bin/bash
# Installs the Debian 12 packages this project needs, only those missing.
# As root: runs apt-get update (only when something is missing) and installs.
# Otherwise: prints the one apt-get line to run, and exits 1 if anything is missing.
set -u
PKGS="libelf-dev libdw-dev libbz2-dev libbpf-dev libcmocka-dev clang clang-16 llvm
      libclang-rt-14-dev bpftool dwarves iproute2 pkg-config make gcc dwz shellcheck gcc-bpf
      musl-dev strace"
missing=()
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "deps.sh: missing packages; run as root:" >&2
	echo "  apt-get install -y ${missing[*]}" >&2
	exit 1
fi
echo "deps.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2 || exit 1
apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 || exit 1
