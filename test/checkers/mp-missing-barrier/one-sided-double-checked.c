// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * mp-missing-barrier, one side: double-checked lazy initialisation. The
 * pointer is tested without the lock; the first caller takes the lock,
 * tests again, and stores a freshly built object. The unlock is a release
 * for CPUs that take the lock, not for those that only test the pointer:
 * they can see it before the object's contents.
 * Modelled on riscv-pk pk/mmap.c:__vmr_alloc() before 4c64de3213e7 and on
 * the kernel's DO_ONCE()-free lazy tables (e.g. the pattern that
 * Documentation/memory-barriers.txt's "publish" examples warn about).
 */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/spinlock.h>

struct lut { u32 n; u32 v[64]; };

extern struct lut *lut_build(void);

static DEFINE_SPINLOCK(lut_lock);
static struct lut *lut;

u32 lut_get(u32 i)
{
	if (!lut) {
		spin_lock(&lut_lock);
		if (!lut)
			lut = lut_build(); // expected-warning {{'lut' is set here to a new object under a lock, but it is tested without the lock before the lock is taken}}
		spin_unlock(&lut_lock);
	}
	return lut->v[i & 63];
}

static struct lut *lut2;

u32 lut2_get(u32 i)
{
	struct lut *t = smp_load_acquire(&lut2);

	if (!t) {
		spin_lock(&lut_lock);
		t = lut2;
		if (!t) {
			t = lut_build();
			smp_store_release(&lut2, t);
		}
		spin_unlock(&lut_lock);
	}
	return t->v[i & 63];
}

/* Tested and set only under the lock: the lock orders everything. */
static struct lut *lut3;

u32 lut3_get(u32 i)
{
	u32 r;

	spin_lock(&lut_lock);
	if (!lut3)
		lut3 = lut_build();
	r = lut3->v[i & 63];
	spin_unlock(&lut_lock);
	return r;
}
