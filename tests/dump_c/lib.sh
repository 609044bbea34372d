# shellcheck shell=bash disable=SC2034 # (fail, w: read by the sourcing scripts)
# Sourced (not run) by the check_dump_c_*.sh scripts: their common frame.
# Leaves the shell in the repo root with B set, a work directory $w removed
# on exit, fail/bad() to record failures, and the helpers below.
# shellcheck source=../lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
w=$T

# Our deliberate enum mode() attributes (see check_dump_c_vmlinux.sh) removed
strip_modes() { sed -E 's/ __attribute__\(\(mode\((byte|word|HI)\)\)\)//' "$1"; }

same_but_modes() { # label ours.h peer.h: 0 when equal once the modes are stripped
	cmp -s <(strip_modes "$2") "$3" && return 0
	bad "$1: differs from bpftool"
	diff <(strip_modes "$2") "$3" | head -30
	return 1
}
