#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
# Usage: gen_big_dwarf.py OUT SIZE (check_system_errors.sh)
import struct, sys, zlib
# A relocatable x86-64 ELF whose only section besides .shstrtab is a zlib
# SHF_COMPRESSED .debug_info of SIZE zero bytes (SIZE a multiple of 1 MiB;
# a few MB on disk): one compressed MiB of zeros, flushed so that it does
# not depend on what came before, repeated, then the end of the stream.
size = int(sys.argv[2])
c = zlib.compressobj(9)
chunk = bytes(1 << 20)
first = c.compress(chunk) + c.flush(zlib.Z_FULL_FLUSH)
again = c.compress(chunk) + c.flush(zlib.Z_FULL_FLUSH)
tail = c.flush()[:-4]  # the final block, without the checksum of 2 MiB
adler = (size % 65521) << 16 | 1  # adler32 of SIZE zero bytes
stream = first + again * ((size >> 20) - 1) + tail + struct.pack(">I", adler)
comp = struct.pack("<IIQQ", 1, 0, size, 1) + stream
shstr = b"\0.debug_info\0.shstrtab\0"
off_info = 64
off_shstr = off_info + len(comp)
off_sh = (off_shstr + len(shstr) + 7) & ~7
eh = struct.pack("<16sHHIQQQIHHHHHH", b"\x7fELF\x02\x01\x01" + bytes(9), 1, 62, 1, 0, 0, off_sh,
                 0, 64, 0, 0, 64, 3, 2)
sh1 = struct.pack("<IIQQQQIIQQ", 1, 1, 0x800, 0, off_info, len(comp), 0, 0, 1, 0)
sh2 = struct.pack("<IIQQQQIIQQ", 13, 3, 0, 0, off_shstr, len(shstr), 0, 0, 1, 0)
data = eh + comp + shstr
data += bytes(off_sh - len(data)) + bytes(64) + sh1 + sh2
open(sys.argv[1], "wb").write(data)
