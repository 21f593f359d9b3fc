// Modelled on: QEMU accel/tcg/translate-all.c / tb-maint.c:tb_flush() and do_tb_flush()
//   (QEMU 8.x-9.x).
// Correct change detector: a vCPU that finds the code buffer full reads tb_flush_count
// and queues an exclusive-context flush carrying that value. When the flush runs (all
// vCPUs stopped), it compares the carried value with the current count: if another
// vCPU already flushed in between, the count moved and this request is dropped. The
// count is bumped once per flush; nothing is read "under" it, there is no odd state,
// and the exclusive section provides the ordering.
#include <stdint.h>
#include <stdbool.h>

/* include/qemu/atomic.h */
#define qatomic_read(ptr)	__atomic_load_n(ptr, __ATOMIC_RELAXED)
#define qatomic_inc(ptr)	((void)__atomic_fetch_add(ptr, 1, __ATOMIC_SEQ_CST))

typedef struct CPUState CPUState;
typedef union { int host_int; void *host_ptr; } run_on_cpu_data;
#define RUN_ON_CPU_HOST_INT(i)	((run_on_cpu_data){ .host_int = (i) })
typedef void (*run_on_cpu_func)(CPUState *cpu, run_on_cpu_data data);

struct TBContext {
	void *htable;
	unsigned tb_flush_count;
	unsigned tb_phys_invalidate_count;
};

struct TBContext tb_ctx;
extern CPUState *first_cpu;

bool tcg_enabled(void);
bool cpu_in_serial_context(CPUState *cpu);
void async_safe_run_on_cpu(CPUState *cpu, run_on_cpu_func func, run_on_cpu_data data);
void mmap_lock(void);
void mmap_unlock(void);
void tcg_flush_jmp_cache(CPUState *cpu);
CPUState *cpu_next(CPUState *cpu);
void qht_reset_size(void *ht, unsigned long n);
void tcg_region_reset_all(void);
void qemu_plugin_flush_cb(void);

static void do_tb_flush(CPUState *cpu, run_on_cpu_data tb_flush_count)
{
	bool did_flush = false;

	mmap_lock();
	/* If it is already been done on request of another CPU, just retry. */
	if (tb_ctx.tb_flush_count != tb_flush_count.host_int)
		goto done;
	did_flush = true;

	for (cpu = first_cpu; cpu; cpu = cpu_next(cpu))
		tcg_flush_jmp_cache(cpu);

	qht_reset_size(tb_ctx.htable, 1 << 15);
	tcg_region_reset_all();
	qatomic_inc(&tb_ctx.tb_flush_count);

done:
	mmap_unlock();
	if (did_flush)
		qemu_plugin_flush_cb();
}

void tb_flush(CPUState *cpu)
{
	if (tcg_enabled()) {
		unsigned tb_flush_count = qatomic_read(&tb_ctx.tb_flush_count);

		if (cpu_in_serial_context(cpu))
			do_tb_flush(cpu, RUN_ON_CPU_HOST_INT(tb_flush_count));
		else
			async_safe_run_on_cpu(cpu, do_tb_flush,
					      RUN_ON_CPU_HOST_INT(tb_flush_count));
	}
}
