enum e2;
typedef union { _Atomic int a0; unsigned short * a1; long (*a2)(struct s3 *, enum e2 *); } t0;
enum e2 { E2_0, E2_1 = -4294967297, E2_2, E2_3 = 0 };
int f0_t0(t0 *p) { return p != 0; }
