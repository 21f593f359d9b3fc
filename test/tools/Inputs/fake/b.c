#include "shared.h"

int b(void) { return 1; }
