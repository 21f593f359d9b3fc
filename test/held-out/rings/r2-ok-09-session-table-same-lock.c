// Modelled on: Documentation/locking/spinlocks.rst (one spinlock taken by every reader
//              and every writer), Linux 6.12 APIs
// Pattern: a session hash table where insert and lookup both run under one
//   spinlock_t, as in many protocol modules that have not moved to RCU (Linux 6.12 APIs).
// Correct: every reader and every writer of the session table takes the same
// spinlock. Insertion fills the session and links it with plain stores (no
// WRITE_ONCE, no release), and lookup walks the chain with plain loads. The
// lock's acquire/release orders all of it. Nothing reads the table outside the
// lock, so a checker that asks for a barrier before "head->first = ..." is wrong.
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/spinlock.h>

#define EEXIST		17
#define NR_BUCKETS	64

struct session {
	struct session *next;
	u32 id, peer_id;
	u32 mtu;
	u16 flags;
	int refs;
};

struct session_table {
	spinlock_t lock;
	struct session *bucket[NR_BUCKETS];
	unsigned int count;
};

static inline unsigned int sess_hash(u32 id)
{
	return (id * 2654435761u) >> 26;	/* 6 bits */
}

int session_add(struct session_table *t, struct session *s, u32 id, u32 peer, u32 mtu)
{
	struct session *it;
	unsigned int h = sess_hash(id);

	spin_lock_bh(&t->lock);
	for (it = t->bucket[h]; it; it = it->next) {
		if (it->id == id) {
			spin_unlock_bh(&t->lock);
			return -EEXIST;
		}
	}
	s->id = id;
	s->peer_id = peer;
	s->mtu = mtu;
	s->flags = 0;
	s->refs = 1;
	s->next = t->bucket[h];
	t->bucket[h] = s;
	t->count++;
	spin_unlock_bh(&t->lock);
	return 0;
}

struct session *session_get(struct session_table *t, u32 id)
{
	struct session *s;

	spin_lock_bh(&t->lock);
	for (s = t->bucket[sess_hash(id)]; s; s = s->next) {
		if (s->id == id) {
			s->refs++;
			break;
		}
	}
	spin_unlock_bh(&t->lock);
	return s;
}

u32 session_mtu(struct session_table *t, u32 id)
{
	struct session *s;
	u32 mtu = 0;

	spin_lock_bh(&t->lock);
	for (s = t->bucket[sess_hash(id)]; s; s = s->next)
		if (s->id == id) {
			mtu = s->mtu;
			break;
		}
	spin_unlock_bh(&t->lock);
	return mtu;
}
