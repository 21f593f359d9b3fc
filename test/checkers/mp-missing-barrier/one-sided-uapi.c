// RUN: %clang -fplugin=%plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// REQUIRES: linux-uapi-headers
/*
 * mp-missing-barrier, one side, in user space: a reader of perf's mmap()ed
 * ring. struct perf_event_mmap_page comes from the kernel's user-space ABI
 * (<linux/perf_event.h>), so the kernel reads and writes what it lays out:
 * the reader must order its load of data_head before the records
 * (include/uapi/linux/perf_event.h: "User-space reading the @data_head
 * value should issue an smp_rmb(), after reading this value") and its
 * record loads before the store of data_tail. Written for seqlint.
 */
#include <linux/kvm.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct reader { struct perf_event_mmap_page *pc; char *data; uint64_t mask; };

uint64_t drain(struct reader *r, void (*emit)(const void *, size_t))
{
	struct perf_event_mmap_page *pc = r->pc;
	uint64_t head = pc->data_head; // expected-warning {{'h->size' is read after 'pc->data_head' is loaded}}
	uint64_t tail = pc->data_tail;
	uint64_t n = 0;

	while (tail != head) {
		struct perf_event_header *h = (void *)&r->data[tail & r->mask];
		emit(h, h->size);
		tail += h->size;
		n++;
	}
	pc->data_tail = tail; // expected-warning {{'pc->data_tail' hands the slot back}}
	return n;
}

uint64_t drain_ok(struct reader *r, void (*emit)(const void *, size_t))
{
	struct perf_event_mmap_page *pc = r->pc;
	uint64_t head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = pc->data_tail;
	uint64_t n = 0;

	while (tail != head) {
		struct perf_event_header *h = (void *)&r->data[tail & r->mask];
		emit(h, h->size);
		tail += h->size;
		n++;
	}
	__atomic_store_n(&pc->data_tail, tail, __ATOMIC_RELEASE);
	return n;
}

/*
 * Not shared: a uapi structure that is an ioctl's argument. The table is
 * calloc()ed here, filled slot by slot with the count stepped after each
 * entry, and handed to KVM_SET_GSI_ROUTING, which copies it (the shape of
 * the KVM selftests' routing helpers). A file that keeps the record in its
 * own memory shows it is not a ring the kernel reads concurrently.
 */
struct kvm_irq_routing *routes_new(unsigned max)
{
	return calloc(1, sizeof(struct kvm_irq_routing) +
			 max * sizeof(struct kvm_irq_routing_entry));
}

void routes_add(struct kvm_irq_routing *r, unsigned gsi, unsigned pin)
{
	unsigned i = r->nr;

	r->entries[i].gsi = gsi;
	r->entries[i].type = KVM_IRQ_ROUTING_IRQCHIP;
	r->entries[i].u.irqchip.irqchip = 0;
	r->entries[i].u.irqchip.pin = pin;
	r->nr++;
}
