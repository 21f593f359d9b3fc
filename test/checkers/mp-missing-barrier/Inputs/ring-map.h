/* A library header's wrapper around mmap(), as liburing's syscall.h has. */
#include <stddef.h>
void *mmap(void *addr, size_t len, int prot, int flags, int fd, long off);
static inline void *lib_map_ring(int fd, size_t len)
{
	return mmap(NULL, len, 0x3, 0x01 /* MAP_SHARED */, fd, 0);
}
