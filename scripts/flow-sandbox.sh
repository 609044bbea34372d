# shellcheck shell=bash
# Sourced (not run) by scripts/demo.sh and tests/flow/check_flowctl.sh: a
# sandbox of this run only for flowctl, never the machine's own netns.
# flow_sandbox NAME PIN-NAME: sets NS (a netns name, not created yet: the
# caller does `ip netns add "$NS"` when it needs it), DIR (a fresh temp dir
# with a bpffs mounted at $DIR/bpffs) and PIN ($DIR/bpffs/PIN-NAME). On exit
# flowctl is detached from PIN, the netns deleted, bpffs unmounted and DIR
# removed, whatever happened in between. Exits 1 if bpffs cannot be mounted.
# Needs B (the build directory) set.

flow_sandbox_cleanup() {
	"$B/flowctl" detach --netns "$NS" --pin "$PIN" >/dev/null 2>&1
	ip netns del "$NS" 2>/dev/null
	umount "$DIR/bpffs" 2>/dev/null
	rm -rf "$DIR"
}

flow_sandbox() {
	NS=$1-$$
	DIR=$(mktemp -d "/tmp/$1.XXXXXX")
	PIN=$DIR/bpffs/$2
	trap flow_sandbox_cleanup EXIT
	mkdir -p "$DIR/bpffs" && mount -t bpf bpffs "$DIR/bpffs" ||
		{ echo "FAIL: cannot mount bpffs in $DIR"; exit 1; }
}
