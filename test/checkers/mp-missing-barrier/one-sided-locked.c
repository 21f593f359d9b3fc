// mp-missing-barrier, one side: a ring whose writers and readers all hold
// one lock is not published locklessly, even when one path of the writer
// gives the lock back early and returns, and even through a volatile
// pointer.
// Modelled on PostgreSQL 15's MaintainOldSnapshotTimeMapping() (snapmgr.c):
// under an exclusive LWLock it either raises the xid of an existing bucket
// of a circular map, or advances the head and stores new entries; one path
// releases the lock and returns early.
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=-*,mp-missing-barrier -fsyntax-only -Xclang -verify %s
// expected-no-diagnostics
#define NSLOT 64
struct lwlock { int v; };
void LWLockAcquire(struct lwlock *l, int mode);
void LWLockRelease(struct lwlock *l);
struct xmap {
	struct lwlock lock;
	int head;
	int used;
	long stamp;
	unsigned int xid[NSLOT];
};
volatile struct xmap *map; /* volatile, as PostgreSQL declares it */

void xmap_advance(long now, unsigned int xmin, int advance)
{
	LWLockAcquire((struct lwlock *)&map->lock, 1);
	if (now < map->stamp) {
		LWLockRelease((struct lwlock *)&map->lock);
		return;
	} else if (now <= map->stamp + 60 * map->used) {
		int bucket = (map->head + (now - map->stamp) / 60) % NSLOT;

		if (map->xid[bucket] < xmin)
			map->xid[bucket] = xmin;
	} else {
		for (int i = 0; i < advance; i++) {
			if (map->used == NSLOT) {
				int old = map->head;

				if (old == NSLOT - 1)
					map->head = 0;
				else
					map->head = old + 1;
				map->xid[old] = xmin;
				map->stamp += 60;
			} else {
				map->xid[(map->head + map->used) % NSLOT] = xmin;
				map->used++;
			}
		}
	}
	LWLockRelease((struct lwlock *)&map->lock);
}

unsigned int xmap_lookup(int minutes)
{
	unsigned int x;

	LWLockAcquire((struct lwlock *)&map->lock, 0);
	x = map->xid[(map->head + minutes) % NSLOT];
	LWLockRelease((struct lwlock *)&map->lock);
	return x;
}
