struct s3;
typedef union { _Atomic int a0; unsigned short * a1; long (*a2)(struct s3 *, enum e2 *); } t0;
struct s3 { int (*m0)(void); t0 m1; enum e1 * m2; struct s3_n0 { enum e1 * m3_0; } m3; long tail[]; };
t0 *g24_t0;
