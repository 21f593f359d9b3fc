#error an error-level finding [seqlint-barrier-wrong-kind]
int error_level(void) { return 4; }
