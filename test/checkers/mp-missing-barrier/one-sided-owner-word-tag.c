// RUN: %clang -fplugin=%plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// RUN: %clang -fplugin=%plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only %s 2>&1 | FileCheck %s
/*
 * mp-missing-barrier, one side, a word of a record the file maps shared
 * that is no ownership word: an identification tag. The shape of
 * PostgreSQL 15's src/backend/port/sysv_shmem.c: the creating function
 * fills the header of a System V segment it shmat()s (creator, magic
 * number, data directory's device and inode) once, before anyone else can
 * know the segment; a later postmaster attaches a segment left over from a
 * crash and tests the magic number, then the device and the inode, to tell
 * whether it is its own. Nothing hands the header over: the magic is
 * stored only when the segment is made. Every access is plain, and the
 * mapping is the only evidence that another process shares the header; a
 * word stored only in a set-up function is no evidence that it moves the
 * record between them. Written for seqlint.
 *
 * The second half: the same mapping with a word that does move the record
 * (a mailbox in a segment two processes attach), stored outside set-up
 * after the record is filled: the mapping is evidence enough there.
 */
#include <stddef.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define SEG_MAGIC 679834894

struct seg_header {
	int magic;
	pid_t creator;
	size_t totalsize;
	size_t freeoffset;
	dev_t device;
	ino_t inode;
};

enum seg_state { SEG_ENOENT, SEG_FOREIGN, SEG_ATTACHED, SEG_FAILED };

/* Correct: the probe of a left-over segment. The magic is tested, then the
 * device and the inode: nothing was handed over to be ordered against. */
static enum seg_state seg_attach(int shmid, void *at, struct seg_header **addr)
{
	struct stat st;
	struct seg_header *hdr;

	if (stat(".", &st) < 0)
		return SEG_FAILED;
	hdr = (struct seg_header *)shmat(shmid, at, 0);
	if (hdr == (struct seg_header *)-1)
		return SEG_ENOENT;
	*addr = hdr;
	if (hdr->magic != SEG_MAGIC || hdr->device != st.st_dev || hdr->inode != st.st_ino)
		return SEG_FOREIGN;
	return SEG_ATTACHED;
}

/* The set-up function: the only store of the magic number. */
struct seg_header *seg_create(key_t key, size_t size)
{
	struct stat st;
	struct seg_header *hdr, *old = NULL;
	int shmid;

	if (stat(".", &st) < 0)
		return NULL;
	shmid = shmget(key, size, IPC_CREAT | IPC_EXCL | 0600);
	if (shmid < 0) {
		shmid = shmget(key, 0, 0);
		if (shmid >= 0 && seg_attach(shmid, NULL, &old) == SEG_ATTACHED)
			return NULL;
		if (old)
			shmdt(old);
		return NULL;
	}
	hdr = (struct seg_header *)shmat(shmid, NULL, 0);
	if (hdr == (struct seg_header *)-1)
		return NULL;
	hdr->creator = getpid();
	hdr->magic = SEG_MAGIC;
	hdr->device = st.st_dev;
	hdr->inode = st.st_ino;
	hdr->totalsize = size;
	hdr->freeoffset = sizeof(*hdr);
	return hdr;
}

struct mailbox {
	unsigned int full;
	unsigned int len;
	char text[240];
};

static struct mailbox *box;

int box_attach(int shmid)
{
	void *p = shmat(shmid, NULL, 0);

	if (p == (void *)-1)
		return -1;
	box = p;
	return 0;
}

/* The bug: the letter filled, then the mailbox marked full with a plain
 * store; the other process tests 'full' and reads the letter. (The caller
 * knows the box is empty: the other process answers each letter on a
 * pipe.) */
int box_post(const char *s, unsigned int n)
{
	struct mailbox *b = box;

	b->len = n;
	for (unsigned int i = 0; i < n && i < sizeof(b->text); i++)
		b->text[i] = s[i];
	b->full = 1; // expected-warning {{'b->full' is published here after the store to 'b->text[]' with no write barrier in between}}
	return 0;
}

/* CHECK: :[[@LINE-4]]:2: warning: 'b->full' is published here after the store to 'b->text[]'
 * CHECK: note: shared with the other side: memory from shmat() in 'box_attach'
 */

/* The bug: the letter read after a plain test of 'full'; the mailbox
 * emptied with a plain store. */
unsigned int box_take(char *out)
{
	struct mailbox *b = box;
	unsigned int n;

	if (!b->full) // expected-warning {{'b->len' is read after 'b->full' is loaded and tested}}
		return 0;
	n = b->len;
	for (unsigned int i = 0; i < n && i < sizeof(b->text); i++)
		out[i] = b->text[i];
	b->full = 0; // expected-warning {{'b->full' hands the slot back to the producer here, after the load of 'b->text[]'}}
	return n;
}
