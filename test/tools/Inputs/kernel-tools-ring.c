/* A ring the kernel shares: the reader of kernel-tools-script.test. */
#include <linux/perf_event.h>
#include <stdint.h>

struct rd { struct perf_event_mmap_page *pc; char *data; uint64_t mask; };

uint64_t drain(struct rd *r, uint64_t (*emit)(const void *))
{
	uint64_t head = r->pc->data_head;
	uint64_t tail = r->pc->data_tail, n = 0;
	while (tail != head) {
		struct perf_event_header *h = (void *)&r->data[tail & r->mask];
		n += emit(h);
		tail += h->size;
	}
	r->pc->data_tail = tail;
	return n;
}
