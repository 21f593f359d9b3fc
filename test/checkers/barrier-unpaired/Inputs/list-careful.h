/* A doubly-linked list in the shape of Linux's list.h: the unlink stores
 * into both neighbours, the careful emptiness test reads the head with
 * smp_load_acquire(). Used by list-neighbours.c. */
#ifndef TEST_LIST_CAREFUL_H
#define TEST_LIST_CAREFUL_H
#include <linux/compiler.h>
#include <asm/barrier.h>

struct list_head {
	struct list_head *next, *prev;
};

static inline void __list_del(struct list_head *prev, struct list_head *next)
{
	next->prev = prev;
	WRITE_ONCE(prev->next, next);
}

extern int __list_del_entry_valid(struct list_head *entry);

static inline void __list_del_entry(struct list_head *entry)
{
	if (!__list_del_entry_valid(entry))
		return;

	__list_del(entry->prev, entry->next);
}

static inline void list_del(struct list_head *entry)
{
	__list_del_entry(entry);
	entry->next = (struct list_head *)0x100;
	entry->prev = (struct list_head *)0x122;
}

static inline void list_del_init_careful(struct list_head *entry)
{
	__list_del_entry(entry);
	WRITE_ONCE(entry->prev, entry);
	smp_store_release(&entry->next, entry);
}

static inline int list_is_head(const struct list_head *list,
			       const struct list_head *head)
{
	return list == head;
}

static inline int list_empty_careful(const struct list_head *head)
{
	struct list_head *next = smp_load_acquire(&head->next);

	return list_is_head(next, head) && (next == READ_ONCE(head->prev));
}
#endif
