#!/usr/bin/env python3
"""measure.py OUT CMD...: runs CMD as a fresh process (posix_spawn) and writes
its wall time, CPU time (user+sys) and peak RSS to OUT.

Used by bench/bench_btfgen.sh."""
import os, sys, time
out, cmd = sys.argv[1], sys.argv[2:]
null = os.open(os.devnull, os.O_WRONLY)
acts = [(os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)]
t0 = time.monotonic()
try:
    pid = os.posix_spawnp(cmd[0], cmd, os.environ, file_actions=acts)
except OSError as e:
    sys.exit("measure: %s: %s" % (cmd[0], e.strerror))
_, status, ru = os.wait4(pid, 0)
wall = time.monotonic() - t0
with open(out, "w") as f:
    f.write("%.3f %d %d %.3f\n" % (wall, ru.ru_maxrss, os.waitstatus_to_exitcode(status),
                                  ru.ru_utime + ru.ru_stime))
