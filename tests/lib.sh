# shellcheck shell=bash
# What the shell tests share, sourced first: `. "$(dirname "$0")/../lib.sh"`.
# $B the build directory, $T a private temporary directory removed on exit
# (a test that needs more cleanup sets its own EXIT trap and removes $T in
# it), fail/bad() to record a failure and go on (the test exits with $fail).
# shellcheck disable=SC2034 # B, T and fail are read by the sourcing test
set -u
B=${B:-build}
T=$(mktemp -d) || { echo "FAIL: mktemp"; exit 1; }
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
