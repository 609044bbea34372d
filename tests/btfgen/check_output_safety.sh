#!/bin/bash
# Output files lose nothing: btfgen and `btfdump format c` refuse an output
# that is an input under any name (same device and inode), keep an existing
# file's mode and owner, write through a symbolic link, refuse hard-linked
# and read-only files, and remove their temporary file on every exit path,
# signals included.
. "$(dirname "$0")/../lib.sh"
BTFGEN=$B/btfgen
# (the same program linked dynamically, which an LD_PRELOAD shim can reach:
# $B/btfgen is static unless built with STATIC=0 or SAN=1)
BTFGEN_DYN=$B/tests/btfgen/btfgen-dynamic BTFDUMP_DYN=$B/tests/btfgen/btfdump-dynamic
BTFDUMP=$B/btfdump
# refuse CODE PATTERN FILE CMD...: exit CODE, one stderr line matching
# PATTERN, FILE unchanged, nothing on stdout
refuse() {
	local code=$1 pat=$2 file=$3
	shift 3
	cp "$file" "$T/before"
	"$@" >"$T/out" 2>"$T/err"
	local rc=$?
	[ $rc -eq "$code" ] || bad "$* -> exit $rc (want $code): $(cat "$T/err")"
	[ "$(wc -l <"$T/err")" -eq 1 ] && grep -q -- "$pat" "$T/err" ||
		bad "$*: stderr is not one line matching '$pat': $(cat "$T/err")"
	[ -s "$T/out" ] && bad "$*: printed on stdout"
	cmp -s "$file" "$T/before" || { bad "$*: changed $file"; cp "$T/before" "$file"; }
}

gcc -g -O2 -c -o "$T/in.o" -x c - <<<'struct s { int a; } v; int f(struct s *p) { return p->a; }'
"$BTFGEN" -o "$T/base.btf" "$T/in.o" || bad "btfgen on a small object"

# 1. the output is the input: itself, through a symlink, through a hard link
refuse 2 "is the input" "$T/in.o" "$BTFGEN" -o "$T/in.o" "$T/in.o"
ln -s in.o "$T/link.o"
refuse 2 "link.o: is the input" "$T/in.o" "$BTFGEN" -o "$T/link.o" "$T/in.o"
ln "$T/in.o" "$T/hard.o"
refuse 2 "hard.o: is the input" "$T/in.o" "$BTFGEN" -o "$T/hard.o" "$T/in.o"
rm "$T/hard.o"
refuse 2 "is the base" "$T/base.btf" "$BTFGEN" --base "$T/base.btf" -o "$T/base.btf" "$T/in.o"
refuse 2 "base.btf: format c: .*is the input" "$T/base.btf" \
	"$BTFDUMP" file "$T/base.btf" format c -o "$T/base.btf"
ln -s base.btf "$T/blink.btf"
refuse 2 "is the input" "$T/base.btf" "$BTFDUMP" file "$T/base.btf" format c -o "$T/blink.btf"
"$BTFGEN" --base "$T/base.btf" -o "$T/split.btf" "$T/in.o" || bad "btfgen --base"
refuse 2 "is the base" "$T/base.btf" \
	"$BTFDUMP" file "$T/split.btf" --base "$T/base.btf" format c -o "$T/base.btf"

# 2. -o onto a symbolic link: the link stays, its target gets the output
echo old >"$T/target.btf"
ln -s target.btf "$T/out-link.btf"
"$BTFGEN" -o "$T/out-link.btf" "$T/in.o" || bad "btfgen -o onto a symbolic link"
[ -L "$T/out-link.btf" ] || bad "-o replaced the symbolic link with a file"
cmp -s "$T/target.btf" "$T/base.btf" || bad "-o did not write the link's target"
ln -s target.h "$T/out-link.h"
"$BTFDUMP" file "$T/base.btf" format c -o "$T/out-link.h" || bad "format c -o onto a link"
[ -L "$T/out-link.h" ] && grep -q 'struct s {' "$T/target.h" || bad "format c -o did not write through the link"

# 3. --in-place keeps mode and owner, writes through a link, refuses hard
#    links and read-only files
cp "$T/in.o" "$T/mode.o"
chmod 0640 "$T/mode.o"
if [ "$(id -u)" = 0 ]; then
	chown nobody:nogroup "$T/mode.o"
	want_owner=nobody:nogroup
else
	want_owner=$(stat -c %U:%G "$T/mode.o")
fi
"$BTFGEN" --in-place "$T/mode.o" || bad "--in-place on a 0640 file"
[ "$(stat -c %a "$T/mode.o")" = 640 ] || bad "--in-place changed the mode to $(stat -c %a "$T/mode.o")"
[ "$(stat -c %U:%G "$T/mode.o")" = "$want_owner" ] ||
	bad "--in-place changed the owner to $(stat -c %U:%G "$T/mode.o") (was $want_owner)"
cp "$T/in.o" "$T/real.o"
ln -s real.o "$T/via-link.o"
"$BTFGEN" --in-place "$T/via-link.o" || bad "--in-place through a link"
[ -L "$T/via-link.o" ] && readelf -S "$T/real.o" | grep -q '\.BTF' ||
	bad "--in-place through a link did not update its target"
cp "$T/in.o" "$T/h1.o"
ln "$T/h1.o" "$T/h2.o"
refuse 5 "h1.o: has 2 names (hard links)" "$T/h1.o" "$BTFGEN" --in-place "$T/h1.o"
[ "$(stat -c %h "$T/h1.o")" = 2 ] || bad "--in-place broke a hard link"
cp "$T/in.o" "$T/ro.o"
chmod 0444 "$T/ro.o"
refuse 5 "ro.o: is read-only" "$T/ro.o" "$BTFGEN" --in-place "$T/ro.o"
cp "$T/base.btf" "$T/ro.h"
chmod 0444 "$T/ro.h"
refuse 5 "ro.h: is read-only" "$T/ro.h" "$BTFDUMP" file "$T/base.btf" format c -o "$T/ro.h"

# 4. a signal while the temporary file exists (raised from fsync, just
#    before the rename) removes it and leaves the input as it was
cat >"$T/sig.c" <<'C'
#include <signal.h>
#include <stdlib.h>
int fsync(int fd) { (void)fd; raise(atoi(getenv("H13_SIG"))); return 0; }
C
gcc -shared -fPIC -o "$T/sig.so" "$T/sig.c" || bad "cannot build the fsync shim"
# (a sanitizer build must accept a preloaded library ahead of its runtime)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
for sig in 2 15 11; do
	mkdir -p "$T/s$sig"
	cp "$T/in.o" "$T/s$sig/in.o"
	cp "$T/in.o" "$T/s$sig/orig"
	H13_SIG=$sig LD_PRELOAD=$T/sig.so "$BTFGEN_DYN" --in-place "$T/s$sig/in.o" 2>/dev/null
	rc=$?
	[ $rc -eq $((128 + sig)) ] || bad "--in-place with signal $sig: exit $rc (want death by the signal)"
	cmp -s "$T/s$sig/in.o" "$T/s$sig/orig" || bad "signal $sig during --in-place changed the input"
	left=$(find "$T/s$sig" -mindepth 1 -printf '%f\n' | grep -v -e '^in\.o$' -e '^orig$')
	[ -z "$left" ] || bad "signal $sig during --in-place left: $left"
	H13_SIG=$sig LD_PRELOAD=$T/sig.so "$BTFGEN_DYN" -o "$T/s$sig/raw.btf" "$T/in.o" 2>/dev/null
	H13_SIG=$sig LD_PRELOAD=$T/sig.so "$BTFDUMP_DYN" file "$T/base.btf" format c -o "$T/s$sig/x.h" 2>/dev/null
	left=$(find "$T/s$sig" -mindepth 1 -printf '%f\n' | grep -v -e '^in\.o$' -e '^orig$')
	[ -z "$left" ] || bad "signal $sig during -o left: $left"
done

# 5. the last step of --in-place (a temporary name, then a rename over the
#    input) is made by a child process, which a SIGKILL of btfgen does not
#    stop: killed while that rename is under way (the shim makes it take
#    a second), btfgen still leaves the input converted and no other file.
#    A rename that fails leaves the input as it was, nothing else, and one
#    error line (exit 5).
cat >"$T/ren.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int rename(const char *from, const char *to)
{
	int (*real)(const char *, const char *) = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
	if (getenv("H13_FAIL")) {
		errno = EXDEV;
		return -1;
	}
	/* (called by the child that renames: the mark holds its parent,
	 * btfgen, and btfgen's process group) */
	char line[64];
	int fd = open(getenv("H13_MARK"), O_CREAT | O_WRONLY | O_TRUNC, 0600);
	int n = snprintf(line, sizeof(line), "%d %d\n", (int)getppid(), (int)getpgid(getppid()));
	if (fd >= 0 && write(fd, line, (size_t)n) != n)
		abort();
	close(fd);
	usleep(1000000);
	return real(from, to);
}
C
gcc -shared -fPIC -o "$T/ren.so" "$T/ren.c" -ldl || bad "cannot build the rename shim"
mkdir "$T/k"
cp "$T/in.o" "$T/k/in.o"
H13_MARK=$T/mark LD_PRELOAD=$T/ren.so "$BTFGEN_DYN" --in-place "$T/k/in.o" 2>/dev/null &
pid=$!
for _ in $(seq 1 100); do [ -e "$T/mark" ] && break; sleep 0.05; done
[ -e "$T/mark" ] || bad "--in-place never reached its rename"
kill -9 $pid
wait $pid 2>/dev/null
for _ in $(seq 1 60); do [ -z "$(find "$T/k" -name 'in.o.tmp*')" ] && break; sleep 0.05; done
"$BTFDUMP" file "$T/k/in.o" >/dev/null 2>&1 || bad "killed during its rename, --in-place did not leave the input converted"
left=$(find "$T/k" -mindepth 1 -printf '%f\n' | grep -vx 'in\.o')
[ -z "$left" ] || bad "killed during its rename, --in-place left: $left"
# the same with the whole process group killed (btfgen leads a group of its
# own under setsid, so that the kill reaches nothing else)
cp "$T/in.o" "$T/k/in.o"
rm -f "$T/mark"
H13_MARK=$T/mark LD_PRELOAD=$T/ren.so setsid "$BTFGEN_DYN" --in-place "$T/k/in.o" 2>/dev/null &
pid=$!
for _ in $(seq 1 100); do [ -s "$T/mark" ] && break; sleep 0.05; done
[ -s "$T/mark" ] || bad "--in-place (own group) never reached its rename"
read -r bpid bpgid <"$T/mark"
if [ "$bpgid" != "$bpid" ] || [ "$bpgid" = "$(ps -o pgid= $$ | tr -d ' ')" ]; then
	bad "btfgen under setsid does not lead its own process group ($bpid in $bpgid)"
	kill -9 "$bpid"
else
	kill -9 -- "-$bpgid"
fi
wait $pid 2>/dev/null
for _ in $(seq 1 60); do [ -z "$(find "$T/k" -name 'in.o.tmp*')" ] && break; sleep 0.05; done
"$BTFDUMP" file "$T/k/in.o" >/dev/null 2>&1 || bad "group killed during its rename, --in-place did not leave the input converted"
left=$(find "$T/k" -mindepth 1 -printf '%f\n' | grep -vx 'in\.o')
[ -z "$left" ] || bad "group killed during its rename, --in-place left: $left"
cp "$T/in.o" "$T/k/in.o"
refuse 5 "in.o: cannot put the new file in place: Invalid cross-device link" "$T/k/in.o" \
	env H13_FAIL=1 LD_PRELOAD="$T/ren.so" "$BTFGEN_DYN" --in-place "$T/k/in.o"
left=$(find "$T/k" -mindepth 1 -printf '%f\n' | grep -vx 'in\.o')
[ -z "$left" ] || bad "a failed rename left: $left"
[ $fail -eq 0 ] && echo "PASS: outputs never overwrite an input, keep mode/owner/links, leave no temporary file"
exit $fail
