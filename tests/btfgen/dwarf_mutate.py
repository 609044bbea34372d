#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Mutations of gcc's annotated assembly (gcc -g -S -dA) that give DWARF
no compiler writes but a damaged object may hold, for btfgen tests:

    dwarf_mutate.py IN.s OUT.s MUTATION

no_elem     the array type's DW_AT_type is renamed in its abbreviation
            (an array whose element type was lost)
var_func    references to the pointer to a subroutine type point at the
            subroutine type itself (a variable of function type)
shrink=N    the first struct's DW_AT_byte_size becomes N
"""
import re
import sys


def main():
    src, dst, mut = sys.argv[1:4]
    lines = open(src).read().split('\n')
    if mut == 'no_elem':
        i = next(i for i, l in enumerate(lines) if '(TAG: DW_TAG_array_type)' in l)
        j = next(j for j in range(i, len(lines)) if '# (DW_AT_type)' in lines[j])
        lines[j] = '\t.uleb128 0x2001\t# (DW_AT_type renamed to a vendor attribute)'
    elif mut == 'var_func':
        dies = {}  # offset -> (tag, first DW_AT_type target)
        cur = None
        for l in lines:
            m = re.search(r'\(DIE \((0x[0-9a-f]+)\) (DW_TAG_\w+)\)', l)
            if m:
                cur = int(m.group(1), 16)
                dies[cur] = [m.group(2), None]
            m = re.search(r'\.long\s+(0x[0-9a-f]+)\s+# DW_AT_type', l)
            if m and cur is not None and dies[cur][1] is None:
                dies[cur][1] = int(m.group(1), 16)
        ptr = next(o for o, (t, r) in dies.items()
                   if t == 'DW_TAG_pointer_type' and r in dies and dies[r][0] == 'DW_TAG_subroutine_type')
        sub = dies[ptr][1]
        pat = re.compile(r'(\.long\s+)0x%x(\s+# DW_AT_type)' % ptr)
        lines = [pat.sub(r'\g<1>0x%x\g<2>' % sub, l) for l in lines]
    elif mut.startswith('shrink='):
        i = next(i for i, l in enumerate(lines) if 'DW_TAG_structure_type)' in l)
        j = next(j for j in range(i, len(lines)) if '# DW_AT_byte_size' in lines[j])
        lines[j] = '\t.byte\t%s\t# DW_AT_byte_size' % mut.split('=')[1]
    else:
        sys.exit('unknown mutation ' + mut)
    open(dst, 'w').write('\n'.join(lines))


if __name__ == '__main__':
    main()
