// Modelled on: riscv-pk pk/mmap.c:__vmr_alloc(), __page_alloc() (riscv-pk, 2017)
// Shipped bug: "Order __page_alloc before writing vmrs" (4c64de3213e7, 2017)
// Double-checked lazy initialisation. The first caller takes vm_lock, zeroes a page
// for the VMR table, and stores its address in the global vmrs. Every later caller
// tests vmrs WITHOUT the lock and then walks the table. Nothing orders the zeroing
// stores before the pointer store. So a hart that sees vmrs != NULL can read refcnt
// fields that the memset has not reached yet, and it then treats a garbage entry as
// in use, or hands out a slot twice. The fix put mb() between the page init and the
// pointer store, and mb() after the unlocked test on the reader path. The other side
// is whichever hart runs this same function next (the proxy kernel is SMP).
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#define RISCV_PGSIZE	4096
#define mb()		__asm__ __volatile__("fence" ::: "memory")

typedef struct { volatile int lock; } spinlock_t;
#define SPINLOCK_INIT	{ 0 }

static inline void spinlock_lock(spinlock_t *l)
{
	while (__atomic_exchange_n(&l->lock, 1, __ATOMIC_ACQUIRE))
		while (l->lock)
			;
}

static inline void spinlock_unlock(spinlock_t *l)
{
	__atomic_store_n(&l->lock, 0, __ATOMIC_RELEASE);
}

typedef struct file file_t;
extern void file_incref(file_t *f);
extern void kassert_fail(const char *what);

typedef struct {
	uintptr_t addr;
	size_t length;
	file_t *file;
	size_t offset;
	unsigned refcnt;
	int prot;
} vmr_t;

#define MAX_VMR (RISCV_PGSIZE / sizeof(vmr_t))

static spinlock_t vm_lock = SPINLOCK_INIT;
static vmr_t *vmrs;

uintptr_t first_free_page;
size_t next_free_page, free_pages;

static uintptr_t page_alloc(void)
{
	uintptr_t addr;

	if (next_free_page == free_pages)
		kassert_fail("out of pages");
	addr = first_free_page + RISCV_PGSIZE * next_free_page++;
	memset((void *)addr, 0, RISCV_PGSIZE);
	return addr;
}

vmr_t *vmr_alloc(uintptr_t addr, size_t length, file_t *file, size_t offset,
		 unsigned refcnt, int prot)
{
	vmr_t *v;

	if (!vmrs) {
		spinlock_lock(&vm_lock);
		if (!vmrs)
			vmrs = (vmr_t *)page_alloc(); /* EXPECT: seqlint-mp-missing-barrier */
		spinlock_unlock(&vm_lock);
	}

	for (v = vmrs; v < vmrs + MAX_VMR; v++) {
		if (v->refcnt == 0) {
			if (file)
				file_incref(file);
			v->addr = addr;
			v->length = length;
			v->file = file;
			v->offset = offset;
			v->refcnt = refcnt;
			v->prot = prot;
			return v;
		}
	}
	return NULL;
}
