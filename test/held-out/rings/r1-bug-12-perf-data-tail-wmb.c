// Modelled on: tools/lib/perf/mmap.c:perf_mmap__read_event(), perf_mmap__consume();
//              tools/include/linux/ring_buffer.h:ring_buffer_read_head()/_write_tail();
//              the ordering comment in kernel/events/ring_buffer.c:perf_output_put_handle()
//              (Linux 6.12)
// Pattern: a perf ring-buffer reader that frees the space it has read with smp_wmb()
//   before the data_tail store.
// The other side is the kernel, which writes samples into the mmap()ed data area. It
// loads data_tail to see how far it may write, and then overwrites the records below
// that point. The reader loads data_head with acquire, copies records out, and then
// stores data_tail. The record LOADS must be done before the tail store is visible,
// or the kernel can overwrite a record while it is being copied. smp_wmb() only orders
// stores against stores, so it is the wrong barrier here. It needs
// smp_store_release() (or smp_mb(), as the kernel comment says).
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

struct perf_event_header { u32 type; u16 misc; u16 size; };

struct perf_event_mmap_page {
	u32 version, compat_version;
	u8 __reserved[1024 - 8];
	u64 data_head;		/* written by the kernel */
	u64 data_tail;		/* written by the reader */
	u64 data_offset, data_size;
};

struct perf_mmap {
	struct perf_event_mmap_page *base;
	unsigned long mask;	/* data_size - 1 */
	u64 start, end, prev;
	unsigned char event_copy[4096];
};

static inline unsigned char *mmap_data(struct perf_mmap *map)
{
	return (unsigned char *)map->base + 4096;
}

static inline u64 ring_read_head(struct perf_event_mmap_page *base)
{
	return smp_load_acquire(&base->data_head);
}

static inline void ring_write_tail(struct perf_event_mmap_page *base, u64 tail)
{
	/* the reader is done with everything below tail */
	smp_wmb(); /* EXPECT: seqlint-barrier-wrong-kind */
	WRITE_ONCE(base->data_tail, tail);
}

int perf_mmap_read_init(struct perf_mmap *map)
{
	map->start = map->prev;
	map->end = ring_read_head(map->base);
	return map->end == map->start ? -1 : 0;
}

const struct perf_event_header *perf_mmap_read_event(struct perf_mmap *map)
{
	unsigned char *data = mmap_data(map);
	const struct perf_event_header *ev;
	unsigned int size, off, cpy, i;

	if (map->end - map->start < sizeof(*ev))
		return NULL;
	ev = (const struct perf_event_header *)&data[map->start & map->mask];
	size = ev->size;
	if (size < sizeof(*ev) || map->end - map->start < size)
		return NULL;

	off = map->start & map->mask;
	if (off + size > map->mask + 1) {
		/* the record wraps: copy it out in two pieces */
		for (i = 0; i < size; i += cpy) {
			cpy = (unsigned int)(map->mask + 1) - (off & map->mask);
			if (cpy > size - i)
				cpy = size - i;
			__builtin_memcpy(map->event_copy + i, &data[off & map->mask], cpy);
			off += cpy;
		}
		ev = (const struct perf_event_header *)map->event_copy;
	}
	map->start += size;
	return ev;
}

void perf_mmap_consume(struct perf_mmap *map)
{
	map->prev = map->start;
	ring_write_tail(map->base, map->start);
}
