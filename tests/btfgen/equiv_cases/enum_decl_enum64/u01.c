enum big;
struct s { enum big *p; int x; };
struct s v1;
