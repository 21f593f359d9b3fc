// -DSEQLINT_DEBUG turns writer protocol errors into an abort with a message;
// without it the same code runs (and the bug goes unnoticed), which is why
// the debug build exists.  Correct code runs cleanly in the debug build.
//
// RUN: %clang %runtime_cflags -DSEQLINT_DEBUG %s -o %t.ok
// RUN: %t.ok | FileCheck %s --check-prefix=OK
// RUN: %clang %runtime_cflags -DSEQLINT_DEBUG -DCASE_END_WITHOUT_BEGIN %s -o %t.end
// RUN: not --crash %t.end 2>&1 | FileCheck %s --check-prefix=END
// RUN: %clang %runtime_cflags -DSEQLINT_DEBUG -DCASE_NESTED %s -o %t.nested
// RUN: not --crash %t.nested 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: %clang %runtime_cflags -DSEQLINT_DEBUG -DCASE_LINUX_NESTED %s -o %t.lnested
// RUN: not --crash %t.lnested 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: %clang %runtime_cflags -DSEQLINT_DEBUG -DCASE_UNLOCK_WITHOUT_LOCK %s -o %t.unlock
// RUN: not --crash %t.unlock 2>&1 | FileCheck %s --check-prefix=END
// RUN: %clang %runtime_cflags -DSEQLINT_DEBUG -DCASE_SPIN_UNLOCK %s -o %t.spin
// RUN: not --crash %t.spin 2>&1 | FileCheck %s --check-prefix=SPIN
// RUN: %clang %runtime_cflags -DSEQLINT_DEBUG -DCASE_LATCH_SWITCH %s -o %t.latch
// RUN: not --crash %t.latch 2>&1 | FileCheck %s --check-prefix=LATCH
// RUN: %clang %runtime_cflags -DSEQLINT_DEBUG -DCASE_MISALIGNED %s -o %t.misaligned
// RUN: not --crash %t.misaligned 2>&1 | FileCheck %s --check-prefix=MISALIGNED
// Release build: no check, no abort.
// RUN: %clang %runtime_cflags -DCASE_NESTED %s -o %t.release
// RUN: %t.release | FileCheck %s --check-prefix=OK
//
// OK: done
// END: seqlint: seqlint_write_end({{.*}}): no write section open (write_end without write_begin)
// NESTED: seqlint: seqlint_write_begin({{.*}}): write section already open (nested or concurrent writer)
// SPIN: seqlint: seqlint_spin_unlock({{.*}}): lock not held
// LATCH: seqlint: seqlint_latch_write_switch({{.*}}): no latch write in progress
// MISALIGNED: seqlint: seqlint_copy_out({{.*}}): misaligned object

#include <seqlint/linux.h>
#include <stdio.h>
#include <string.h>

static seqlint_seqcount_t sc = SEQLINT_SEQCOUNT_INIT;
static seqcount_t ksc = SEQCNT_ZERO(ksc);
static seqlint_seqlock_t sl = SEQLINT_SEQLOCK_INIT;
static seqlint_latch_t latch = SEQLINT_LATCH_INIT;
struct rec { uint32_t a, b; };
static _Alignas(8) unsigned char buf[32];

int main(void)
{
	/* correct usage first: must not trip any check */
	seqlint_write_begin(&sc);
	seqlint_write_end(&sc);
	seqlint_seqlock_write_lock(&sl);
	seqlint_seqlock_write_unlock(&sl);
	seqlint_latch_write_begin(&latch);
	seqlint_latch_write_switch(&latch);
	seqlint_latch_write_end(&latch);
	struct rec r, *shared = (struct rec *)(void *)buf;
	memset(buf, 0, sizeof(buf));
	seqlint_copy_out(&r, shared);

#ifdef CASE_END_WITHOUT_BEGIN
	seqlint_write_end(&sc);
#endif
#ifdef CASE_NESTED
	seqlint_write_begin(&sc);
	seqlint_write_begin(&sc);
#endif
#ifdef CASE_LINUX_NESTED
	write_seqcount_begin(&ksc);
	write_seqcount_begin(&ksc);
#endif
#ifdef CASE_UNLOCK_WITHOUT_LOCK
	seqlint_seqlock_write_unlock(&sl);
#endif
#ifdef CASE_SPIN_UNLOCK
	seqlint_spin_unlock(&sl.lock);
#endif
#ifdef CASE_LATCH_SWITCH
	seqlint_latch_write_switch(&latch);
#endif
#ifdef CASE_MISALIGNED
	/* The type is aligned, the pointer is not: only a run-time check can see it. */
	seqlint_copy_out(&r, (struct rec *)(void *)(buf + 2));
#endif
	(void)ksc;
	printf("done\n");
	return 0;
}
