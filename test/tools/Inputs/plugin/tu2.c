#include "writer.h"

void tu2(struct s *p) { w(p); }
