// Real bug: Linux perf, commit b89a05b21f46 (as given in the seqlint task
// list; its text could not be retrieved with the search tool, so the shape
// below follows the bug class it names): a field shared with a concurrent
// updater is read with READ_ONCE() and checked, then read again plainly and
// the second value is used. Between the two loads the updater can change it,
// so the code uses a value that was never checked (here: a page count checked
// non-zero, then used as a divisor). Caught by access-plain-reread (off by
// default, enabled below). Fixed shape: read once into a local and reuse it.
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=access-plain-reread -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
#include <linux/compiler.h>
#include <asm/barrier.h>

struct ring_buffer {
	unsigned long aux_head;
	unsigned long aux_nr_pages;	/* set to 0 when the AUX area is unmapped */
	void **aux_pages;
};

/* ---- buggy: check with READ_ONCE, then use a plain re-read ---- */
void *aux_page_for(struct ring_buffer *rb, unsigned long offset)
{
	unsigned long idx;

	if (!READ_ONCE(rb->aux_nr_pages))
		return 0;
	idx = (offset >> 12) % rb->aux_nr_pages; // expected-warning {{plain re-read of 'rb->aux_nr_pages', which was read with READ_ONCE() and checked above}}
	return rb->aux_pages[idx];
}

/* ---- fixed: one marked read, the checked value is the used value ---- */
void *aux_page_for_fixed(struct ring_buffer *rb, unsigned long offset)
{
	unsigned long nr = READ_ONCE(rb->aux_nr_pages);

	if (!nr)
		return 0;
	return rb->aux_pages[(offset >> 12) % nr];
}
