// access-plain-reread: checked loads of one location that meet where two
// paths join. The finding's note names the one first in the source (here the
// then-branch's), whatever order the dataflow visits the blocks in.
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=access-plain-reread -fsyntax-only -Xclang -verify %s
#include <linux/compiler.h>

struct link {
	int mtu;
	int up;
};

int link_payload(struct link *l, int tunnel)
{
	int room;

	if (tunnel) {
		if (READ_ONCE(l->mtu) < 1280) // expected-note {{'l->mtu' is read and checked here}}
			return -1;
		room = 40;
	} else {
		if (READ_ONCE(l->mtu) < 576)
			return -1;
		room = 20;
	}
	return l->mtu - room; // expected-warning {{plain re-read of 'l->mtu', which was read with READ_ONCE() and checked above}}
}
