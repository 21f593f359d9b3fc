#include "writer.h"

void tu1(struct s *p) { w(p); }
