enum big;
struct s { enum big *p; int x; };
struct t { struct s s; enum big *q; };
struct t v2;
