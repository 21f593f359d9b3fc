/* seqlint test stub: mimics Linux 6.12 <linux/cpumask.h>: the number of
 * online CPUs is an atomic_t read with raw_atomic_read(), here arch_atomic_read(). */
#ifndef SEQLINT_STUB_LINUX_CPUMASK_H
#define SEQLINT_STUB_LINUX_CPUMASK_H

#include <linux/atomic.h>

extern atomic_t __num_online_cpus;

static __always_inline unsigned int num_online_cpus(void)
{
	return arch_atomic_read(&__num_online_cpus);
}

#endif
