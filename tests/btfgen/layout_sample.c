// SPDX-License-Identifier: BSD-2-Clause
/* The small object of the layout tests (check_layout_out.sh, check_layout_pahole.sh):
 * a struct with a bit-field, a union, an enum, a function pointer typedef. */
struct node { struct node *next; int v[4]; unsigned flags: 3; };
union u { long l; double d; };
enum e { A, B = 7 };
typedef int (*cb_t)(struct node *, union u *);
struct node head;
cb_t cb;
enum e state;
int use(struct node *n, union u *x) { return n->v[0] + (int)x->l + state; }
