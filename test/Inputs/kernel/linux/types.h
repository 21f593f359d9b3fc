/* seqlint test stub: mimics the shape of Linux 6.12 <linux/types.h>. */
#ifndef SEQLINT_STUB_LINUX_TYPES_H
#define SEQLINT_STUB_LINUX_TYPES_H

#include <linux/kconfig.h>

typedef signed char s8;
typedef unsigned char u8;
typedef signed short s16;
typedef unsigned short u16;
typedef signed int s32;
typedef unsigned int u32;
typedef signed long long s64;
typedef unsigned long long u64;
typedef u8 __u8;
typedef u16 __u16;
typedef u32 __u32;
typedef u64 __u64;

typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef long ssize_t;
typedef unsigned long uintptr_t;
typedef long long loff_t;
typedef unsigned int gfp_t;
typedef s64 ktime_t;

#ifndef __bool_true_false_are_defined
typedef _Bool bool;
enum { false = 0, true = 1 };
#endif

#ifndef NULL
#define NULL ((void *)0)
#endif

#ifndef BITS_PER_LONG
#define BITS_PER_LONG (__SIZEOF_LONG__ * 8)
#endif

typedef struct { int counter; } atomic_t;
typedef struct { s64 counter; } atomic64_t;
typedef atomic64_t atomic_long_t;

struct list_head { struct list_head *next, *prev; };
struct lock_class_key { char __unused; };

#endif
