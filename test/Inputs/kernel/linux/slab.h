/* seqlint test stub: mimics Linux 6.12 <linux/slab.h>: kfree() is extern;
 * kmalloc()/kzalloc() are macros wrapping static inline *_noprof() in alloc_hooks(). */
#ifndef SEQLINT_STUB_LINUX_SLAB_H
#define SEQLINT_STUB_LINUX_SLAB_H

#include <linux/compiler.h>
#include <linux/types.h>

#define ___GFP_DIRECT_RECLAIM 0x400u
#define ___GFP_KSWAPD_RECLAIM 0x800u
#define ___GFP_IO             0x40u
#define ___GFP_FS             0x80u
#define ___GFP_HIGH           0x20u
#define ___GFP_ZERO           0x10000u
#define __GFP_ZERO            ((gfp_t)___GFP_ZERO)
#define GFP_KERNEL ((gfp_t)(___GFP_DIRECT_RECLAIM | ___GFP_KSWAPD_RECLAIM | ___GFP_IO | ___GFP_FS))
#define GFP_ATOMIC ((gfp_t)(___GFP_HIGH | ___GFP_KSWAPD_RECLAIM))
#define GFP_NOWAIT ((gfp_t)___GFP_KSWAPD_RECLAIM)

/* alloc_tag.h without CONFIG_MEM_ALLOC_PROFILING */
#define alloc_hooks(_do_alloc)						\
({									\
	typeof(_do_alloc) _res = _do_alloc;				\
	_res;								\
})

extern void kfree(const void *objp);
extern void *__kmalloc_noprof(size_t size, gfp_t flags) __attribute__((__malloc__));

static __always_inline void *kmalloc_noprof(size_t size, gfp_t flags)
{
	return __kmalloc_noprof(size, flags);
}

static __always_inline void *kzalloc_noprof(size_t size, gfp_t flags)
{
	return kmalloc_noprof(size, flags | __GFP_ZERO);
}

#define kmalloc(...) alloc_hooks(kmalloc_noprof(__VA_ARGS__))
#define kzalloc(...) alloc_hooks(kzalloc_noprof(__VA_ARGS__))

#endif
