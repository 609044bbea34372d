enum big { B0 = 0x100000000ULL, B1 };
struct s { enum big *p; int x; };
struct s v0;
