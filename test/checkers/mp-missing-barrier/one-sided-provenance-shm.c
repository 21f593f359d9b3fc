// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only %s 2>&1 | FileCheck %s
/*
 * Rings in memory that another process maps: the other side of the
 * protocol is not in the file, but where the memory comes from is.
 * mmap(MAP_SHARED) of a shared-memory object, and a ring reached through
 * pointers computed from a mapping (liburing's `sq->ktail = ring_ptr +
 * off`, behind a small wrapper around mmap()). A private mapping, and the
 * same code under a lock, are no evidence.
 */
#include <stddef.h>

#define PROT_READ 0x1
#define PROT_WRITE 0x2
#define MAP_SHARED 0x01
#define MAP_PRIVATE 0x02
#define MAP_ANONYMOUS 0x20
#define MAP_FAILED ((void *)-1)
void *mmap(void *addr, size_t len, int prot, int flags, int fd, long off);
int shm_open(const char *name, int oflag, unsigned mode);

struct rec { long key, val; };

/* --- a queue in a POSIX shared-memory segment --------------------------- */
struct shq {
	unsigned prod, cons;
	struct rec slot[128];
};

static struct shq *shq;

int shq_attach(const char *name)
{
	int fd = shm_open(name, 2, 0600);
	if (fd < 0)
		return -1;
	shq = mmap(NULL, sizeof(*shq), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	return shq == MAP_FAILED ? -1 : 0;
}

int shq_put(long key, long val)
{
	unsigned p = shq->prod;

	if (p - __atomic_load_n(&shq->cons, __ATOMIC_ACQUIRE) == 128)
		return -1;
	shq->slot[p & 127].key = key;
	shq->slot[p & 127].val = val;
	shq->prod = p + 1; // expected-warning {{'shq->prod' is published here after the store to 'shq->slot[].val' with no write barrier}}
	// CHECK: [[@LINE-1]]:{{.*}}'shq->prod' is published here
	// CHECK: note: shared with the other side: memory from mmap() in 'shq_attach': another process maps it
	return 0;
}

int shq_get(long *key, long *val)
{
	unsigned c = shq->cons;

	if (c == shq->prod) // expected-warning {{'shq->slot[].key' is read after 'shq->prod' is loaded and tested, with no read barrier}}
		return -1;
	*key = shq->slot[c & 127].key;
	*val = shq->slot[c & 127].val;
	__atomic_store_n(&shq->cons, c + 1, __ATOMIC_RELEASE);
	return 0;
}

/* The fixed twins: release and acquire. */
int shq_put_ok(long key, long val)
{
	unsigned p = shq->prod;

	if (p - __atomic_load_n(&shq->cons, __ATOMIC_ACQUIRE) == 128)
		return -1;
	shq->slot[p & 127].key = key;
	shq->slot[p & 127].val = val;
	__atomic_store_n(&shq->prod, p + 1, __ATOMIC_RELEASE);
	return 0;
}

int shq_get_ok(long *key, long *val)
{
	unsigned c = shq->cons;

	if (c == __atomic_load_n(&shq->prod, __ATOMIC_ACQUIRE))
		return -1;
	*key = shq->slot[c & 127].key;
	*val = shq->slot[c & 127].val;
	__atomic_store_n(&shq->cons, c + 1, __ATOMIC_RELEASE);
	return 0;
}

/* --- a private mapping: a copy no one else sees --------------------------- */
struct privq {
	unsigned prod;
	struct rec slot[64];
};

static struct privq *privq;

int privq_init(void)
{
	privq = mmap(NULL, sizeof(*privq), PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return privq == MAP_FAILED ? -1 : 0;
}

void privq_put(long key)
{
	unsigned p = privq->prod;

	privq->slot[p & 63].key = key;
	privq->prod = p + 1;
}

/* --- a ring whose pointers are computed from a mapping (liburing) --------- */
struct kring_offsets { unsigned tail, array; };

struct sub_ring {
	unsigned *ktail;
	unsigned *array;
	unsigned mask;
	void *base;
};

static void *map_ring(int fd, size_t len)
{
	return mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
}

int sub_ring_setup(struct sub_ring *r, int fd, const struct kring_offsets *o)
{
	r->base = map_ring(fd, 4096);
	if (r->base == MAP_FAILED)
		return -1;
	r->ktail = (unsigned *)((char *)r->base + o->tail);
	r->array = (unsigned *)((char *)r->base + o->array);
	return 0;
}

void sub_ring_push(struct sub_ring *r, unsigned idx)
{
	unsigned tail = *r->ktail;

	r->array[tail & r->mask] = idx;
	*r->ktail = tail + 1; // expected-warning {{'*(r->ktail)' is published here after the store to 'r->array[]' with no write barrier}}
	// CHECK: [[@LINE-1]]:{{.*}}'*(r->ktail)' is published here
	// CHECK: note: shared with the other side: memory from mmap() in 'map_ring': another process maps it
}

void sub_ring_push_ok(struct sub_ring *r, unsigned idx)
{
	unsigned tail = *r->ktail;

	r->array[tail & r->mask] = idx;
	__atomic_store_n(r->ktail, tail + 1, __ATOMIC_RELEASE);
}

/* --- mapped by a wrapper in a header, looked into at its call ------------ */
#include "Inputs/ring-map.h"

struct cq_ring { unsigned *khead; unsigned *ktail; unsigned mask; struct rec *cqes; };

int cq_setup(struct cq_ring *c, int fd)
{
	char *base = lib_map_ring(fd, 8192);

	c->khead = (unsigned *)(base + 0);
	c->ktail = (unsigned *)(base + 64);
	c->cqes = (struct rec *)(base + 128);
	return 0;
}

long cq_reap(struct cq_ring *c)
{
	unsigned head = *c->khead;
	long key;

	if (head == *c->ktail) // expected-warning {{'c->cqes[].key' is read after '*(c->ktail)' is loaded and tested, with no read barrier}}
		return -1;
	key = c->cqes[head & c->mask].key;
	__atomic_store_n(c->khead, head + 1, __ATOMIC_RELEASE);
	return key;
}
