#!/bin/bash
# make demo: the whole chain on this machine (filled in as the tools land).
B=${B:-build}
echo "btfdump of this kernel's vmlinux BTF (first lines):"
"$B/btfdump" file /sys/kernel/btf/vmlinux | head -5
