/*
 * Kernel-style lockless code, compiled and run in user space unchanged
 * through <seqlint/linux.h>.  The functions between the two marker comments
 * are written exactly as they would be in the kernel; main() is user-space
 * glue (threads instead of timers and syscalls).
 *
 *   cc -std=gnu11 -O2 -pthread $(pkg-config --cflags seqlint-runtime) kernel_style.c
 *
 * Three patterns:
 *   - a timekeeper protected by a seqcount_t (single writer: the tick);
 *   - per-device statistics protected by a seqlock_t (any number of writers);
 *   - message passing with smp_wmb()/smp_rmb() and with
 *     smp_store_release()/smp_load_acquire().
 */
#include <seqlint/linux.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

typedef unsigned long long u64;
typedef unsigned int u32;
#define NSEC_PER_SEC 1000000000ULL

/* ---- kernel-style code begins ------------------------------------------ */

struct timekeeper {
	seqcount_t seq;
	u64 sec;
	u64 nsec;
	u64 cycles;		/* cycle counter value at the last tick */
};

static struct timekeeper tk = { .seq = SEQCNT_ZERO(tk.seq) };

/* The tick: the only writer of tk, so the seqcount needs no lock. */
static void update_wall_time(u64 cycles, u64 delta_ns)
{
	u64 sec, nsec;

	write_seqcount_begin(&tk.seq);
	sec = tk.sec;
	nsec = tk.nsec + delta_ns;
	while (nsec >= NSEC_PER_SEC) {
		nsec -= NSEC_PER_SEC;
		sec++;
	}
	WRITE_ONCE(tk.cycles, cycles);
	WRITE_ONCE(tk.nsec, nsec);
	WRITE_ONCE(tk.sec, sec);
	write_seqcount_end(&tk.seq);
}

/* Readers: a consistent (sec, nsec, cycles) triple, whatever the tick does. */
static void ktime_get_snapshot(u64 *sec, u64 *nsec, u64 *cycles)
{
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&tk.seq);
		*sec = READ_ONCE(tk.sec);
		*nsec = READ_ONCE(tk.nsec);
		*cycles = READ_ONCE(tk.cycles);
	} while (read_seqcount_retry(&tk.seq, seq));
}

struct dev_stats {
	seqlock_t lock;
	u64 packets;
	u64 bytes;
};

static struct dev_stats stats = { .lock = __SEQLOCK_UNLOCKED(stats.lock) };

/* Called from several threads: the seqlock's spinlock serializes writers. */
static void dev_account(u32 len)
{
	write_seqlock(&stats.lock);
	WRITE_ONCE(stats.packets, stats.packets + 1);
	WRITE_ONCE(stats.bytes, stats.bytes + len);
	write_sequnlock(&stats.lock);
}

static void dev_get_stats(u64 *packets, u64 *bytes)
{
	unsigned int seq;

	do {
		seq = read_seqbegin(&stats.lock);
		*packets = READ_ONCE(stats.packets);
		*bytes = READ_ONCE(stats.bytes);
	} while (read_seqretry(&stats.lock, seq));
}

struct message {
	int payload;
};

static struct message msg_a;
static struct message *mailbox;		/* published with release */
static int data_x, flag_x;		/* published with smp_wmb() */

static void publish(int v)
{
	WRITE_ONCE(msg_a.payload, v);
	smp_store_release(&mailbox, &msg_a);

	WRITE_ONCE(data_x, v);
	smp_wmb();
	WRITE_ONCE(flag_x, 1);
}

static int consume(int *via_acquire, int *via_rmb)
{
	struct message *m = smp_load_acquire(&mailbox);

	if (!m || !READ_ONCE(flag_x))
		return 0;
	smp_rmb();
	*via_acquire = READ_ONCE(m->payload);
	*via_rmb = READ_ONCE(data_x);
	return 1;
}

/* ---- kernel-style code ends -------------------------------------------- */

#define SNAPSHOTS 200000
#define ACCOUNTS 200000
#define LEN 64
/* The simulated clock: 1 cycle = 1 ns, so sec * 1e9 + nsec == cycles. */

static int stop_ticking;
static long ticks;

static void *tick_thread(void *arg)
{
	(void)arg;
	for (u64 c = 1; !__atomic_load_n(&stop_ticking, __ATOMIC_RELAXED); c++) {
		update_wall_time(c * 9973, 9973);	/* ~10 us per tick */
		__atomic_store_n(&ticks, (long)c, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void *account_thread(void *arg)
{
	(void)arg;
	for (int i = 0; i < ACCOUNTS; i++)
		dev_account(LEN);
	return NULL;
}

static void *publish_thread(void *arg)
{
	(void)arg;
	publish(42);
	return NULL;
}

int main(void)
{
	pthread_t t[4];
	long bad = 0, snapshots = 0;

	pthread_create(&t[0], NULL, tick_thread, NULL);
	pthread_create(&t[1], NULL, account_thread, NULL);
	pthread_create(&t[2], NULL, account_thread, NULL);
	pthread_create(&t[3], NULL, publish_thread, NULL);

	/* Keep reading until the clock has ticked a few times: on a loaded
	 * machine the tick thread may not have run yet after SNAPSHOTS reads. */
	for (long i = 0; i < SNAPSHOTS ||
			 __atomic_load_n(&ticks, __ATOMIC_RELAXED) < 3; i++) {
		u64 sec, nsec, cycles, packets, bytes;

		ktime_get_snapshot(&sec, &nsec, &cycles);
		bad += sec * NSEC_PER_SEC + nsec != cycles;
		dev_get_stats(&packets, &bytes);
		bad += bytes != packets * LEN;
		snapshots++;
	}
	__atomic_store_n(&stop_ticking, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);

	int a = 0, b = 0;
	if (!consume(&a, &b) || a != 42 || b != 42)
		bad++;
	u64 packets, bytes;
	dev_get_stats(&packets, &bytes);
	if (packets != 2 * ACCOUNTS || bytes != 2 * ACCOUNTS * LEN)
		bad++;

	printf("kernel_style: %ld snapshots, %ld ticks, %ld inconsistent (barriers: %s)\n",
	       snapshots, ticks, bad, SEQLINT_ARCH);
	return bad ? EXIT_FAILURE : EXIT_SUCCESS;
}
