struct u;
struct s { struct u *p; };
struct s v1;
