#include "shared.h"

#warning a bug [seqlint-seqcount-read-no-retry]
int a(void) { return 0; }
