// SPDX-License-Identifier: BSD-2-Clause
/* A name with a backslash, which bpftool 7.1 writes as \n in JSON strings;
 * check_golden.sh compares btfdump with it. */
__attribute__((btf_decl_tag("back\\slash"))) int tagged_var = 1;
