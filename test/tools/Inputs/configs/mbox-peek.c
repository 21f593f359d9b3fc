/* Another file of the program: a second reader of the mailbox. */
#include "mbox.h"

int mbox_peek(struct mbox *m)
{
	if (__atomic_load_n(&m->ready, __ATOMIC_ACQUIRE))
		return m->data;
	return 0;
}
