"""Writes big.c (a 10 000-statement writer) and nested.c (200 nested loops)."""
import os
import sys

out = sys.argv[1]
with open(os.path.join(out, "big.c"), "w") as f:
    f.write('#include "%s"\n' % "linux/compiler.h")
    f.write("struct s { unsigned seq; int a[64]; };\n")
    f.write("void big(struct s *p, int v)\n{\n")
    f.write("\tWRITE_ONCE(p->seq, p->seq + 1);\n")
    for i in range(10000):
        f.write("\tp->a[%d] = v + %d;\n" % (i % 64, i))
    f.write("\t__atomic_store_n(&p->seq, p->seq + 1, __ATOMIC_RELEASE);\n}\n")
with open(os.path.join(out, "nested.c"), "w") as f:
    f.write("int nested(int n)\n{\n\tint s = 0;\n")
    for i in range(200):
        f.write("\tfor (int i%d = 0; i%d < n; i%d++)\n" % (i, i, i))
    f.write("\t\ts++;\n\treturn s;\n}\n")
