// Modelled on: kernel/bpf/trampoline.c:update_prog_stats()/__bpf_prog_exit() and
//              include/linux/filter.h:__bpf_prog_run() (Linux 6.12; the 5.15 shape before the fix)
// Shipped bug: "bpf: Fixes possible race in update_prog_stats() for 32bit arches" (d979617aa84d, 2021)
// FLAGS: -DBITS_PER_LONG=32
// Per-CPU run statistics, u64_stats_sync (a seqcount on 32-bit), no lock.
// Programs attached to the sampling timer run in softirq; the trampoline exit
// of a sleepable program runs in task context with only migration disabled,
// so a softirq on the same CPU can run the timer program and enter the same
// write section while the task is inside it. The fix made every writer use
// u64_stats_update_begin_irqsave().
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/u64_stats_sync.h>
#include <linux/rcupdate.h>

extern unsigned long this_cpu_off;
#define __my_cpu_offset ({ unsigned long __o;				\
	asm("movq %%gs:%1, %0" : "=r"(__o) : "m"(this_cpu_off)); __o; })
#define this_cpu_ptr(ptr) ((typeof(ptr))((unsigned long)(ptr) + __my_cpu_offset))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - __builtin_offsetof(type, member)))

extern u64 sched_clock(void);
extern void migrate_disable(void);
extern void migrate_enable(void);

struct timer_list { unsigned long expires; void (*function)(struct timer_list *); u32 flags; };
extern void init_timer_key(struct timer_list *t, void (*fn)(struct timer_list *),
			   unsigned int flags, const char *name, struct lock_class_key *key);
#define timer_setup(timer, callback, flags) \
	init_timer_key((timer), (callback), (flags), NULL, NULL)
extern int mod_timer(struct timer_list *timer, unsigned long expires);
extern unsigned long jiffies;

struct task_struct;
extern struct task_struct *kthread_create_on_node(int (*fn)(void *), void *data,
						  int node, const char *namefmt, ...);
extern int wake_up_process(struct task_struct *p);
extern bool kthread_should_stop(void);
#define kthread_run(fn, data, name)					\
({									\
	struct task_struct *__k = kthread_create_on_node(fn, data, -1, name); \
	if (__k)							\
		wake_up_process(__k);					\
	__k;								\
})

struct probe_prog_stats {
	u64_stats_t cnt;
	u64_stats_t nsecs;
	struct u64_stats_sync syncp;
};

struct probe_prog {
	unsigned int (*func)(const void *ctx);
	struct probe_prog_stats __percpu *stats;
	struct timer_list sample_timer;
	void *sample_ctx;
};

/* softirq: the sampling timer runs the program directly */
static void probe_sample_timer_fn(struct timer_list *t)
{
	struct probe_prog *prog = container_of(t, struct probe_prog, sample_timer);
	struct probe_prog_stats *st;
	u64 start = sched_clock();

	prog->func(prog->sample_ctx);
	st = this_cpu_ptr(prog->stats);
	u64_stats_update_begin(&st->syncp);
	u64_stats_inc(&st->cnt);
	u64_stats_add(&st->nsecs, sched_clock() - start);
	u64_stats_update_end(&st->syncp);

	mod_timer(&prog->sample_timer, jiffies + 1);
}

/* task context: trampoline enter/exit for sleepable programs */
static u64 probe_prog_enter_sleepable(struct probe_prog *prog)
{
	rcu_read_lock();
	migrate_disable();
	return sched_clock();
}

static void probe_prog_exit_sleepable(struct probe_prog *prog, u64 start)
{
	struct probe_prog_stats *st;

	if (start) {
		st = this_cpu_ptr(prog->stats);
		u64_stats_update_begin(&st->syncp); /* EXPECT: seqlint-seqcount-write-unlocked */
		u64_stats_inc(&st->cnt);
		u64_stats_add(&st->nsecs, sched_clock() - start);
		u64_stats_update_end(&st->syncp);
	}
	migrate_enable();
	rcu_read_unlock();
}

static int probe_runner_thread(void *data)
{
	struct probe_prog *prog = data;

	while (!kthread_should_stop()) {
		u64 start = probe_prog_enter_sleepable(prog);

		prog->func(NULL);
		probe_prog_exit_sleepable(prog, start);
	}
	return 0;
}

void probe_prog_start(struct probe_prog *prog)
{
	timer_setup(&prog->sample_timer, probe_sample_timer_fn, 0);
	mod_timer(&prog->sample_timer, jiffies + 1);
	kthread_run(probe_runner_thread, prog, "probe_runner");
}
