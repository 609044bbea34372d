enum e2;
typedef union { _Atomic int a0; unsigned short * a1; long (*a2)(struct s3 *, enum e2 *); } t0;
struct s3 { int (*m0)(void); t0 m1; enum e1 * m2; struct s3_n0 { enum e1 * m3_0; } m3; long tail[]; };
enum e2 { E2_0 = 1, E2_1, E2_2 = 1, E2_3 = 255 };
t0 *g2_t0;
int f2_s3(struct s3 *p) { return p != 0; }
