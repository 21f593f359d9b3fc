// access-plain-shared: a function that marks a store on one path and leaves
// it plain on another, where the two paths never meet. The shape is a
// deferred-work queue. If the item is already queued (a double submit), the
// queue may be running it right now, so the submit function overwrites its
// handler with WRITE_ONCE() and gives up. Otherwise nobody else holds the
// item yet, and the function sets the handler plainly before it hands the
// item over. The only sign that the handler is shared is the function's own
// marked store, on the path that never reaches the plain one: the function
// chose the plain store for the state where the item is still private.
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=access-plain-shared -fsyntax-only -Xclang -verify %s
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/spinlock.h>

struct work;
typedef void (*work_fn)(struct work *);

struct work {
	struct work *next;
	work_fn fn;
	work_fn done;
	work_fn undo;
	work_fn retry;
	int prio;
};

struct queue {
	spinlock_t lock;
	struct work *head;
};

extern int work_already_queued(struct work *w);
extern void warn_double_submit(void);
extern void leaked_work(struct work *w);

static void queue_insert(struct queue *q, struct work *w)
{
	spin_lock(&q->lock);
	w->next = q->head;
	q->head = w;
	spin_unlock(&q->lock);
}

/* Correct: the marked store and the plain one are on paths that never meet. */
void work_submit(struct queue *q, struct work *w, work_fn fn)
{
	if (work_already_queued(w)) {
		/* Probably submitted twice: let the running copy leak. */
		WRITE_ONCE(w->fn, leaked_work);
		warn_double_submit();
		return;
	}
	w->fn = fn;
	spin_lock(&q->lock);
	w->next = q->head;
	q->head = w;
	spin_unlock(&q->lock);
}

/* Correct: the same with an else branch instead of an early return. */
void work_submit_prio(struct queue *q, struct work *w, int prio)
{
	spin_lock(&q->lock);
	spin_unlock(&q->lock);
	if (work_already_queued(w))
		WRITE_ONCE(w->prio, -1);
	else
		w->prio = prio;
}

/* Bug: the plain store follows the marked one on the same path. */
void work_resubmit(struct queue *q, struct work *w, work_fn fn)
{
	spin_lock(&q->lock);
	spin_unlock(&q->lock);
	if (work_already_queued(w))
		WRITE_ONCE(w->done, leaked_work); // expected-note {{'w->done' is written with WRITE_ONCE() here}}
	w->done = fn; // expected-warning {{plain store to 'w->done' outside any lock, but it is written with WRITE_ONCE() in work_resubmit(), so it is accessed concurrently}}
	queue_insert(q, w);
}

/* Bug: exclusive paths here, but another function also marks its stores. */
void work_set_undo(struct queue *q, struct work *w, work_fn fn)
{
	spin_lock(&q->lock);
	spin_unlock(&q->lock);
	if (work_already_queued(w)) {
		WRITE_ONCE(w->undo, leaked_work); // expected-note {{'w->undo' is written with WRITE_ONCE() here}}
		return;
	}
	w->undo = fn; // expected-warning {{plain store to 'w->undo' outside any lock, but it is written with WRITE_ONCE() in work_set_undo(), so it is accessed concurrently}}
}

void work_cancel_undo(struct work *w)
{
	WRITE_ONCE(w->undo, NULL);
}

/* Bug: in a loop, the marked store of one round reaches the plain store of
 * the next. */
void work_retry_all(struct queue *q, struct work **ws, int n, work_fn fn)
{
	int i = 0;

	spin_lock(&q->lock);
	spin_unlock(&q->lock);
	while (i < n) {
		if (work_already_queued(ws[0])) {
			WRITE_ONCE(ws[0]->retry, leaked_work); // expected-note {{'ws[0]->retry' is written with WRITE_ONCE() here}}
			i++;
			continue;
		}
		ws[0]->retry = fn; // expected-warning {{plain store to 'ws[0]->retry' outside any lock, but it is written with WRITE_ONCE() in work_retry_all(), so it is accessed concurrently}}
		i++;
	}
}
