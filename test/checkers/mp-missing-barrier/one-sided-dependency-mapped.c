// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * mp-missing-barrier, one side, in memory mapped shared: a branch orders,
 * and so does the lack of a path.
 *
 * A back end maps a log of the requests in flight that it shares with
 * its front end, and at reconnection repairs it: it compares the used
 * index with its saved copy, tests the entry at the saved index, and keeps
 * one copy or the other. Two kinds of order need no barrier:
 *  - a store in a branch of a test of what was loaded: no CPU makes a
 *    store visible before the loads its execution depends on (the
 *    kernel's load-to-store control dependency); and the store in one arm
 *    of the branch does not come before the other arm's;
 *  - the version stored on an arm that returns, and the used index read
 *    after the branch: no path runs the store and then the load, so there
 *    is no store buffering.
 * The same load after the same store on one path is reported, and so is
 * an entry's data read before an index store that only its flag controls,
 * and a load made after the test whose branch holds the store.
 * Modelled on DPDK's lib/vhost/vhost_user.c
 * (vhost_check_queue_inflights_split/_packed); rewritten.
 */
#include <stdint.h>
#include <sys/mman.h>

struct log_entry {
	uint64_t addr;
	uint32_t len;
	uint8_t inflight;
};

struct flight_log {
	uint16_t version;
	uint16_t free_head, old_free_head;
	uint16_t used_idx, old_used_idx;
	struct log_entry e[];
};

struct used_ring { uint16_t flags, idx; };

struct queue {
	struct flight_log *log;
	struct used_ring *used;
	int kickfd;
	uint32_t last_len;
};

extern void notify_fd(int fd, struct queue *q);

int log_map(struct queue *q, int fd, unsigned long size)
{
	void *a = mmap(0, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (a == MAP_FAILED)
		return -1;
	q->log = a;
	return 0;
}

/* Which copy survives depends on the entry read. */
void log_repair(struct queue *q)
{
	struct flight_log *log = q->log;
	uint16_t old = log->old_used_idx;

	if (log->used_idx != old) {
		if (log->e[old].inflight == 0) {
			log->old_used_idx = log->used_idx;
			log->old_free_head = log->free_head;
		} else {
			log->used_idx = log->old_used_idx;
			log->free_head = log->old_free_head;
		}
	}
}

/* Bug: the entry's length is read before the index store that only its
 * flag controls. */
void log_repair_bad(struct queue *q)
{
	struct flight_log *log = q->log;
	uint16_t old = log->old_used_idx;

	q->last_len = log->e[old].len;
	if (log->e[old].inflight == 0)
		log->old_used_idx = log->used_idx; // expected-warning {{'log->old_used_idx' hands the slot back to the producer here, after the load of 'log->e[].len'}}
}

/* Bug: a walk that tests the length left and, in that branch, loads the
 * next entry's length and moves the index past it. The test is made
 * before the load it would depend on (the same local, set again later in
 * its own branch: DPDK's memif chain walk), so it orders nothing. */
uint32_t log_walk_bad(struct queue *q, uint32_t want)
{
	struct flight_log *log = q->log;
	uint16_t i = log->old_used_idx;
	uint32_t left = 0, got = 0;

	while (want) {
		if (left == 0) {
			left = log->e[i].len;
			log->old_used_idx = i + 1; // expected-warning {{'log->old_used_idx' hands the slot back to the producer here, after the load of 'log->e[].len'}}
			i++;
		}
		got++;
		left--;
		want--;
	}
	return got;
}

/* The version is set on an arm that returns; the used index is read, to
 * decide on a kick, only on the other. */
int log_attach(struct queue *q)
{
	struct flight_log *log = q->log;

	if (!log->version) {
		log->version = 1;
		return 0;
	}
	if (__atomic_load_n(&q->used->idx, __ATOMIC_RELAXED) != log->used_idx)
		notify_fd(q->kickfd, q);
	return 1;
}

/* Bug: the same load after the same store, on one path. */
int log_attach_bad(struct queue *q)
{
	struct flight_log *log = q->log;

	if (!log->version)
		log->version = 1;
	if (__atomic_load_n(&q->used->idx, __ATOMIC_RELAXED) != log->used_idx) // expected-warning {{'q->used->idx' is loaded here, after the store to 'log->version', to decide whether to wake the other side, with no full barrier in between}}
		notify_fd(q->kickfd, q);
	return 1;
}
