// SPDX-License-Identifier: BSD-2-Clause
/* Name clashes, part 1 (clash_b.c reuses every name with other types);
 * linked with `bpftool gen object` into one BTF holding both. */
struct clash {
	int a;
};
typedef int clash_t;
enum color { RED, GREEN };
union uclash {
	int i;
};
struct user_a {
	struct clash c;
	clash_t t;
	enum color col;
	union uclash u;
};
struct user_a gv_user_a;
