/* A ring layout the kernel shares with user space (a uapi header). */
#ifndef XRING_H
#define XRING_H
struct xring_desc { unsigned long long addr; unsigned int len; unsigned int flags; };
struct xring {
	unsigned int producer;	/* written by the kernel */
	unsigned int consumer;	/* written by user space */
	struct xring_desc desc[256];
};
#endif
