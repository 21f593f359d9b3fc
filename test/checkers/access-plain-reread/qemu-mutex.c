// access-plain-reread: a lockless check, then the same location re-read
// under the lock, QEMU style. Modelled on QEMU 7.2's util/qemu-timer.c
// (timerlist_deadline_ns()): qatomic_read() of active_timers as a hint, then
// qemu_mutex_lock() and a plain read. QEMU's qemu_mutex_lock() is a macro
// that calls the lock function through a pointer, so only its name says
// that it is a lock.
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=access-plain-reread -fsyntax-only -Xclang -verify %s
// expected-no-diagnostics
typedef struct QemuMutex { int m; } QemuMutex;
typedef void (*QemuMutexLockFunc)(QemuMutex *m, const char *f, int l);
extern QemuMutexLockFunc qemu_mutex_lock_func;
void qemu_mutex_unlock_impl(QemuMutex *m, const char *f, int l);
#define qatomic_read(ptr) __atomic_load_n(ptr, __ATOMIC_RELAXED)
#define qemu_mutex_lock(m) ({                                           \
            QemuMutexLockFunc _f = qatomic_read(&qemu_mutex_lock_func); \
            _f(m, __FILE__, __LINE__);                                  \
        })
#define qemu_mutex_unlock(mutex) \
        qemu_mutex_unlock_impl(mutex, __FILE__, __LINE__)

struct timer { long expire; struct timer *next; };
struct timer_list {
	QemuMutex lock;
	struct timer *active;
};

long first_deadline(struct timer_list *tl)
{
	struct timer *t;
	long e;

	if (!qatomic_read(&tl->active))
		return -1;
	qemu_mutex_lock(&tl->lock);
	t = tl->active;
	if (!t) {
		qemu_mutex_unlock(&tl->lock);
		return -1;
	}
	e = t->expire;
	qemu_mutex_unlock(&tl->lock);
	return e;
}
