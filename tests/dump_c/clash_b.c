// SPDX-License-Identifier: BSD-2-Clause
/* Name clashes, part 2: same names as clash_a.c, different types. */
struct clash {
	long b;
	char c;
};
typedef long clash_t;
enum palette { RED = 10, BLUE };
union uclash {
	long l;
	char c[3];
};
struct user_b {
	struct clash c;
	clash_t t;
	enum palette p;
	union uclash u;
};
struct user_b gv_user_b;
