#warning never reported [seqlint-barrier-misplaced]
int broken(void) { return undeclared_identifier; }
