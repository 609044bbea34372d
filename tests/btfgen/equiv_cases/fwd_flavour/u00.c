union u { int a; long b; };
struct s { union u *p; };
struct s v0;
