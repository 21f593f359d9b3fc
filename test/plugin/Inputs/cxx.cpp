// C++ with the kernel-style macros: a class, a template, a lambda.
#include <linux/compiler.h>
#include <asm/barrier.h>

struct S {
  unsigned seq;
  int a;
  void update(int v) {
    WRITE_ONCE(seq, seq + 1);
    a = v;
    smp_store_release(&seq, seq + 1);
  }
};

template <typename T> void tupdate(T *p, int v) {
  WRITE_ONCE(p->seq, p->seq + 1);
  smp_wmb();
  p->a = v;
  smp_store_release(&p->seq, p->seq + 1);
}

void use(S *s) {
  tupdate(s, 1);
  auto f = [s](int v) { s->a = v; };
  f(2);
}
