#warning not a seqlint finding [other-tool-check]
#warning [seqlint-] is not a check name
int other(void) { int unused; return 3; }
