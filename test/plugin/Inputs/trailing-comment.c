#include <linux/seqlock.h>
struct s { unsigned seq; int a, b, c; };
void w1(struct s *s, int a) {
	WRITE_ONCE(s->seq, s->seq + 1); /* odd: readers retry */
	s->a = a;
	smp_wmb();
	WRITE_ONCE(s->seq, s->seq + 1);
}
void w2(struct s *s, int a) {
	WRITE_ONCE(s->seq, s->seq + 1); // odd
	s->b = a;
	smp_wmb();
	WRITE_ONCE(s->seq, s->seq + 1);
}
void w3(struct s *s, int a) {
	WRITE_ONCE(s->seq, s->seq + 1); /* odd */ s->c = a;
	smp_wmb();
	WRITE_ONCE(s->seq, s->seq + 1);
}
