/* Shared by the files of program-wide.test: a record every TU agrees on. */
#include <linux/compiler.h>
#include <asm/barrier.h>

struct ev {
	int code;
	int posted;
};

struct ready_msg {
	int payload;
	int ready;
};

struct job {
	int arg;
	int queued;
};

struct cfg {
	int mode;
	int valid;
};

/* Defined in a header: analysed in every TU that calls it. */
static inline void msg_send(struct ready_msg *m, int v)
{
	m->payload = v;
	smp_wmb();
	WRITE_ONCE(m->ready, 1);
}

/* A flag and datum with internal linkage: each TU has its own. */
static int hdr_data;
static int hdr_flag;

extern int g_data;
extern int g_flag;
