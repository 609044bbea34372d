union u;
struct s { union u *p; };
struct s v2;
