// Modelled on: kernel/trace/ring_buffer.c:rb_start_commit(), rb_end_commit() and
//   rb_set_commit_to_write() (Linux 6.12), one page instead of a page list.
// Correct: `commits` is bumped by every (possibly nested, interrupt-context) writer on
// this CPU. rb_end_commit() loads it, moves the commit pointer, drops `committing`, and
// loads `commits` again: if an interrupt started a commit in between, it loops. This
// is a change detector on a writer path, not a seqcount reader: the stores between the
// two loads are the point, there is no odd state, and only interrupts on the same CPU
// race with it, so barrier() is the right ordering.
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

typedef struct { long a; } local_t;

static __always_inline long local_read(const local_t *l) { return READ_ONCE(l->a); }
static __always_inline void local_set(local_t *l, long i) { WRITE_ONCE(l->a, i); }
static __always_inline void local_inc(local_t *l)
{
	asm volatile("incq %0" : "+m"(l->a));
}
static __always_inline void local_dec(local_t *l)
{
	asm volatile("decq %0" : "+m"(l->a));
}

struct rb_page {
	local_t commit;
	unsigned char data[4000];
};

struct rb_cpu {
	local_t committing;
	local_t commits;
	long write;		/* reserved up to here (tail) */
	long commit;		/* committed up to here */
	struct rb_page *page;
	bool warned;
};

static __always_inline void rb_start_commit(struct rb_cpu *cpu_buffer)
{
	local_inc(&cpu_buffer->committing);
	local_inc(&cpu_buffer->commits);
}

static void rb_set_commit_to_write(struct rb_cpu *cpu_buffer)
{
	long w;

	while (cpu_buffer->commit != (w = READ_ONCE(cpu_buffer->write))) {
		/* Make sure the readers see the content of what is committed. */
		smp_wmb();
		local_set(&cpu_buffer->page->commit, w);
		cpu_buffer->commit = w;
		/* add barrier to keep gcc from optimizing too much */
		barrier();
	}
}

static __always_inline void rb_end_commit(struct rb_cpu *cpu_buffer)
{
	unsigned long commits;

	if (!local_read(&cpu_buffer->committing)) {
		cpu_buffer->warned = true;
		return;
	}

again:
	commits = local_read(&cpu_buffer->commits);
	/* synchronize with interrupts */
	barrier();
	if (local_read(&cpu_buffer->committing) == 1)
		rb_set_commit_to_write(cpu_buffer);

	local_dec(&cpu_buffer->committing);

	/* synchronize with interrupts */
	barrier();

	/* an interrupt may have reserved after we moved the commit */
	if (unlikely(local_read(&cpu_buffer->commits) != commits) &&
	    !local_read(&cpu_buffer->committing)) {
		local_inc(&cpu_buffer->committing);
		goto again;
	}
}

void rb_write_event(struct rb_cpu *cpu_buffer, const void *ev, long len)
{
	long w;

	rb_start_commit(cpu_buffer);
	w = cpu_buffer->write;
	WRITE_ONCE(cpu_buffer->write, w + len);
	__builtin_memcpy(&cpu_buffer->page->data[w], ev, len);
	rb_end_commit(cpu_buffer);
}
