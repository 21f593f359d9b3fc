/* One source, two configurations: built with -DPRODUCER it is the writer's
 * half, otherwise the reader's (a driver whose #ifdef picks the side). The
 * writer publishes 'ready' relaxed after 'data'; the reader acquires it. */
#include "mbox.h"

#ifdef PRODUCER
void mbox_post(struct mbox *m, int v)
{
	m->data = v;
	__atomic_store_n(&m->ready, 1, __ATOMIC_RELAXED);
}
#else
int mbox_take(struct mbox *m)
{
	if (__atomic_load_n(&m->ready, __ATOMIC_ACQUIRE))
		return m->data;
	return -1;
}
#endif
