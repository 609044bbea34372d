// SPDX-License-Identifier: BSD-2-Clause
/* A name with a backslash, where btfdump's JSON knowingly differs from
 * bpftool 7.1 (which writes \n for it); see check_golden.sh. */
__attribute__((btf_decl_tag("back\\slash"))) int tagged_var = 1;
