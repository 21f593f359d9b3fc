// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier,barrier-unpaired -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
/*
 * mp-missing-barrier: a signal handler runs on the thread it interrupts.
 * Data the thread stores before publishing a flag (or a pointer) is seen
 * by that thread's own handler in program order: no CPU barrier is needed,
 * and none is missing. Modelled on PostgreSQL's timeout.c: the backend
 * fills a timeout's parameters, then links it into the active list in a
 * helper; the SIGALRM handler registered with pqsignal() walks the list.
 * Registration by signal(), a project's pqsignal()-style wrapper whose
 * name the model knows, and struct sigaction's sa_handler/sa_sigaction.
 * A reader that is a thread of its own is still a partner.
 */
#include <linux/compiler.h>
#include <signal.h>
#include <stddef.h>

typedef void (*sig_fn)(int);
extern sig_fn pqsignal(int signo, sig_fn func);
extern int pthread_create_like(void *(*start)(void *), void *arg);

struct timeout {
	int id;
	long fin_time;
	long interval;
	int active;
};

static struct timeout all_timeouts[8];
static struct timeout *active_timeouts[8];
static int num_active;

static void insert_timeout(int id, int index)
{
	WRITE_ONCE(active_timeouts[index], &all_timeouts[id]);
	num_active++;
}

/* The backend thread: parameters first, then the link. */
void enable_timeout(int id, long fin_time, long interval)
{
	all_timeouts[id].fin_time = fin_time;
	all_timeouts[id].interval = interval;
	insert_timeout(id, num_active);
}

/* Correct: the SIGALRM handler runs on the backend's own thread. */
static void handle_sig_alarm(int signo)
{
	struct timeout *t = READ_ONCE(active_timeouts[0]);

	(void)signo;
	if (t != NULL && t->interval > 0)
		t->fin_time += t->interval;
}

void initialize_timeouts(void)
{
	pqsignal(SIGALRM, handle_sig_alarm);
}

/* --- the same through signal() and through struct sigaction --- */
struct slot {
	long value;
	long stamp;
	int ready;
};
static struct slot usr1_slot, usr2_slot, worker_slot;

void post_usr1(long v)
{
	usr1_slot.value = v;
	usr1_slot.stamp = v + 1;
	WRITE_ONCE(usr1_slot.ready, 1);
}

static void on_usr1(int signo)
{
	(void)signo;
	if (READ_ONCE(usr1_slot.ready))
		usr1_slot.stamp = usr1_slot.value;
}

void post_usr2(long v)
{
	usr2_slot.value = v;
	usr2_slot.stamp = v + 1;
	WRITE_ONCE(usr2_slot.ready, 1);
}

static void on_usr2(int signo, siginfo_t *info, void *uc)
{
	(void)signo;
	(void)info;
	(void)uc;
	if (READ_ONCE(usr2_slot.ready))
		usr2_slot.stamp = usr2_slot.value;
}

void install_handlers(void)
{
	struct sigaction sa;

	signal(SIGUSR1, on_usr1);
	sa.sa_sigaction = on_usr2;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR2, &sa, NULL);
}

/* Bug: the same shape with a thread of its own as the reader. */
void post_worker(long v)
{
	worker_slot.value = v;
	worker_slot.stamp = v + 1;
	WRITE_ONCE(worker_slot.ready, 1); // expected-warning {{'worker_slot.ready' is published here after the store to 'worker_slot.value' with no write barrier in between}}
}

static void *worker(void *arg)
{
	(void)arg;
	if (READ_ONCE(worker_slot.ready)) // expected-warning {{'worker_slot.value' is read after the flag 'worker_slot.ready' with no read barrier}}
		worker_slot.stamp = worker_slot.value;
	return NULL;
}

void start_worker(void)
{
	pthread_create_like(worker, NULL);
}
