// RUN: %clang_plugin -fplugin-arg-seqlint-checks=mp-missing-barrier -fsyntax-only -DQEMU -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --check-prefix=QEMU
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=mp-missing-barrier -fsyntax-only -DPG -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --check-prefix=PG
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=mp-missing-barrier -fsyntax-only -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --check-prefix=C11
/*
 * The same unordered publication in QEMU's, PostgreSQL's and C11's
 * spelling: each gets its own family's advice and fix-it (issue 14).
 */
#if defined(QEMU)
#define smp_wmb() __atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define qatomic_store_release(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)
#define qatomic_set(p, v) __atomic_store_n(p, v, __ATOMIC_RELAXED)
#define PUBLISH(p, v) qatomic_set(p, v)
#elif defined(PG)
#define pg_write_barrier() __atomic_thread_fence(__ATOMIC_RELEASE)
#define pg_read_barrier() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define pg_memory_barrier() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define PUBLISH(p, v) (*(volatile int *)(p) = (v))
#else
#include <stdatomic.h>
#define PUBLISH(p, v) atomic_store_explicit((_Atomic int *)(p), v, memory_order_relaxed)
#endif

struct job {
	int arg;
	int queued;
};

void job_post(struct job *j, int arg)
{
	j->arg = arg;
	PUBLISH(&j->queued, 1);
}

int job_take(struct job *j)
{
	if (!__atomic_load_n(&j->queued, __ATOMIC_RELAXED))
		return -1;
	return j->arg;
}
// QEMU: use qatomic_store_release() for this store or put smp_wmb() before it [seqlint-mp-missing-barrier]
// QEMU: fix-it:"{{.*}}":{32:2-32:2}:"smp_wmb();\n\t"
// PG: use a store after pg_memory_barrier() for this store or put pg_write_barrier() before it [seqlint-mp-missing-barrier]
// PG: fix-it:"{{.*}}":{32:2-32:2}:"pg_write_barrier();\n\t"
// C11: use atomic_store_explicit(..., memory_order_release) for this store or put atomic_thread_fence(memory_order_release) before it [seqlint-mp-missing-barrier]
// C11: fix-it:"{{.*}}":{32:2-32:2}:"atomic_thread_fence(memory_order_release);\n\t"
