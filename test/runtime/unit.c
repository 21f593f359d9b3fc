// Unit tests of the seqlint runtime: single-threaded semantics of every API,
// the copy helpers on objects of several shapes, the barrier layer on every
// scalar size, and the Linux-compatible names.  Built with both compilers,
// warnings as errors, and with the arch barriers, the C11 fallback and debug
// checks; the cross-*.test files run the same file under qemu-user.
//
// RUN: %clang %runtime_cflags -O2 -Wall -Wextra -Wpedantic -Werror -DEXPECT_ARCH=\"%host_arch\" %s -o %t.clang
// RUN: %t.clang | FileCheck %s
// RUN: %clang %runtime_cflags -O0 -Wall -Wextra -Werror -DSEQLINT_DEBUG -DEXPECT_ARCH=\"%host_arch\" %s -o %t.debug
// RUN: %t.debug | FileCheck %s
// RUN: %clang %runtime_cflags -O2 -Wall -Wextra -Werror -DSEQLINT_GENERIC_BARRIERS -DEXPECT_ARCH=\"generic\" %s -o %t.generic
// RUN: %t.generic | FileCheck %s
// RUN: %if gcc %{ %gcc %runtime_cflags -O2 -Wall -Wextra -Wpedantic -Werror -DEXPECT_ARCH=\"%host_arch\" %s -o %t.gcc %}
// RUN: %if gcc %{ %t.gcc | FileCheck %s %}
// Other standards and optimization levels, and ASan+UBSan (alignment and
// aliasing of the copy helpers):
// RUN: %clang %runtime_cflags -std=c2x -O3 -Wall -Wextra -Werror -DEXPECT_ARCH=\"%host_arch\" %s -o %t.c2x
// RUN: %t.c2x | FileCheck %s
// RUN: %clang %runtime_cflags -std=gnu17 -Os -fsanitize=address,undefined -fno-sanitize-recover=all -DEXPECT_ARCH=\"%host_arch\" %s -o %t.asan
// RUN: %t.asan | FileCheck %s
// The test must be able to fail: a wrong expected arch is reported.
// RUN: %clang %runtime_cflags -O2 -DEXPECT_ARCH=\"no-such-arch\" %s -o %t.wrong
// RUN: not %t.wrong | FileCheck %s --check-prefix=WRONG
//
// CHECK: unit: all {{[0-9]+}} checks passed
// WRONG: FAIL{{.*}}SEQLINT_ARCH
// WRONG: unit: {{[1-9][0-9]*}} of {{[0-9]+}} checks failed

#include <seqlint/linux.h>

#include <stdio.h>
#include <string.h>

#ifndef EXPECT_ARCH
#error "compile with -DEXPECT_ARCH=\"<arch>\""
#endif

static int checks, failures;
#define CHECK(cond) do {						\
	checks++;							\
	if (!(cond)) {							\
		failures++;						\
		printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);	\
	}								\
} while (0)

/* ---- seqcount ---------------------------------------------------------- */
static seqlint_seqcount_t static_sc = SEQLINT_SEQCOUNT_INIT;

static void test_seqcount(void)
{
	seqlint_seqcount_t sc;
	seqlint_seqcount_init(&sc);

	CHECK(seqlint_read_begin(&static_sc) == 0);
	unsigned s0 = seqlint_read_begin(&sc);
	CHECK(s0 == 0);
	CHECK(!seqlint_read_retry(&sc, s0));

	seqlint_write_begin(&sc);
	CHECK(atomic_load(&sc.sequence) == 1);	/* odd inside the section */
	CHECK(seqlint_read_retry(&sc, s0));	/* a reader that began before */
	seqlint_write_end(&sc);
	CHECK(atomic_load(&sc.sequence) == 2);
	CHECK(seqlint_read_retry(&sc, s0));	/* ... must retry */

	unsigned s1 = seqlint_read_begin(&sc);
	CHECK(s1 == 2);
	CHECK(!seqlint_read_retry(&sc, s1));

	/* const objects can be read */
	const seqlint_seqcount_t *csc = &sc;
	CHECK(seqlint_read_begin(csc) == 2);

	/* wrap-around of the counter keeps parity semantics */
	atomic_store(&sc.sequence, 0xfffffffeu);
	unsigned s2 = seqlint_read_begin(&sc);
	seqlint_write_begin(&sc);
	CHECK(atomic_load(&sc.sequence) == 0xffffffffu);
	seqlint_write_end(&sc);
	CHECK(atomic_load(&sc.sequence) == 0);
	CHECK(seqlint_read_retry(&sc, s2));
}

/* ---- copy helpers ------------------------------------------------------ */
struct two64 { uint64_t a, b; };			/* 64-bit words */
struct three32 { uint32_t a, b, c; };			/* 12 bytes: 32-bit words */
struct mixed { double d; int32_t i[3]; float f; };	/* 24 bytes, align 8 */
struct big { uint64_t w[32]; };				/* 256 bytes */

static void test_copy(void)
{
	struct two64 s2 = { 0x1122334455667788ull, 0x99aabbccddeeff00ull }, d2 = { 0, 0 };
	seqlint_copy_out(&d2, &s2);
	CHECK(memcmp(&s2, &d2, sizeof(s2)) == 0);
	struct two64 e2 = { 1, 2 };
	seqlint_copy_in(&s2, &e2);
	CHECK(s2.a == 1 && s2.b == 2);

	struct three32 s3 = { 1, 2, 3 }, d3 = { 0, 0, 0 };
	seqlint_copy_out(&d3, &s3);
	CHECK(d3.a == 1 && d3.b == 2 && d3.c == 3);

	struct mixed sm = { 2.5, { -1, -2, -3 }, 1.5f }, dm;
	memset(&dm, 0, sizeof(dm));
	seqlint_copy_out(&dm, &sm);
	CHECK(dm.d == 2.5 && dm.i[0] == -1 && dm.i[2] == -3 && dm.f == 1.5f);
	memset(&dm, 0, sizeof(dm));
	seqlint_copy_in(&dm, &sm);
	CHECK(memcmp(&dm, &sm, sizeof(sm)) == 0);

	static struct big sb, db;
	for (int i = 0; i < 32; i++)
		sb.w[i] = (uint64_t)i * 0x0101010101010101ull;
	seqlint_copy_out(&db, &sb);
	CHECK(memcmp(&sb, &db, sizeof(sb)) == 0);

	/* const source */
	const struct two64 cs = { 7, 8 };
	struct two64 cd;
	seqlint_copy_out(&cd, &cs);
	CHECK(cd.a == 7 && cd.b == 8);
}

static void test_objects(void)
{
	static seqlint_seqcount_t sc = SEQLINT_SEQCOUNT_INIT;
	static struct three32 shared;
	struct three32 in = { 4, 5, 6 }, out = { 0, 0, 0 };

	seqlint_write_object(&sc, &shared, &in);
	CHECK(atomic_load(&sc.sequence) == 2);
	seqlint_read_object(&sc, &shared, &out);
	CHECK(out.a == 4 && out.b == 5 && out.c == 6);
}

/* ---- seqlock ------------------------------------------------------------ */
static void test_seqlock(void)
{
	seqlint_seqlock_t sl;
	seqlint_seqlock_init(&sl);
	static seqlint_seqlock_t ssl = SEQLINT_SEQLOCK_INIT;

	unsigned s = seqlint_seqlock_read_begin(&sl);
	CHECK(s == 0 && seqlint_seqlock_read_begin(&ssl) == 0);
	seqlint_seqlock_write_lock(&sl);
	CHECK(!seqlint_spin_trylock(&sl.lock));	/* writers exclude each other */
	CHECK(atomic_load(&sl.seqcount.sequence) == 1);
	seqlint_seqlock_write_unlock(&sl);
	CHECK(seqlint_seqlock_read_retry(&sl, s));
	CHECK(seqlint_spin_trylock(&sl.lock));
	seqlint_spin_unlock(&sl.lock);
	s = seqlint_seqlock_read_begin(&sl);
	CHECK(s == 2 && !seqlint_seqlock_read_retry(&sl, s));

	seqlint_spinlock_t l = SEQLINT_SPINLOCK_INIT;
	seqlint_spin_lock(&l);
	CHECK(!seqlint_spin_trylock(&l));
	seqlint_spin_unlock(&l);
}

/* ---- latch -------------------------------------------------------------- */
static void test_latch(void)
{
	seqlint_latch_t l;
	seqlint_latch_init(&l);
	static struct two64 copies[2];

	unsigned s = seqlint_latch_read_begin(&l);
	CHECK(seqlint_latch_index(s) == 0);
	seqlint_latch_write_begin(&l);
	unsigned s1 = seqlint_latch_read_begin(&l);
	CHECK(seqlint_latch_index(s1) == 1);	/* readers use copy 1 ... */
	CHECK(seqlint_latch_read_retry(&l, s));	/* ... and old readers retry */
	seqlint_latch_write_switch(&l);
	CHECK(seqlint_latch_index(seqlint_latch_read_begin(&l)) == 0);
	seqlint_latch_write_end(&l);

	struct two64 in = { 10, 20 }, out = { 0, 0 };
	seqlint_latch_write_object(&l, copies, &in);
	CHECK(copies[0].a == 10 && copies[1].b == 20);
	seqlint_latch_read_object(&l, copies, &out);
	CHECK(out.a == 10 && out.b == 20);
}

/* ---- barrier layer ------------------------------------------------------ */
enum color { RED, GREEN = 1000 };

static void test_barriers(void)
{
	if (strcmp(SEQLINT_ARCH, EXPECT_ARCH) != 0)
		printf("FAIL: SEQLINT_ARCH is \"%s\", expected \"%s\"\n",
		       SEQLINT_ARCH, EXPECT_ARCH);
	CHECK(strcmp(SEQLINT_ARCH, EXPECT_ARCH) == 0);

	seqlint_barrier();
	seqlint_smp_mb();
	seqlint_smp_rmb();
	seqlint_smp_wmb();
	seqlint_cpu_relax();

	uint8_t u8 = 0; uint16_t u16 = 0; uint32_t u32 = 0; long lg = 0;
	_Bool b = 0; enum color c = RED; int x = 0; int *p = NULL;
	seqlint_store_release(&u8, 0xab);
	seqlint_store_release(&u16, 0xabcd);
	seqlint_store_release(&u32, 0xdeadbeefu);
	seqlint_store_release(&lg, -5L);
	seqlint_store_release(&b, 1);
	seqlint_store_release(&c, GREEN);
	seqlint_store_release(&p, &x);
	CHECK(seqlint_load_acquire(&u8) == 0xab);
	CHECK(seqlint_load_acquire(&u16) == 0xabcd);
	CHECK(seqlint_load_acquire(&u32) == 0xdeadbeefu);
	CHECK(seqlint_load_acquire(&lg) == -5L);
	CHECK(seqlint_load_acquire(&b) == 1);
	CHECK(seqlint_load_acquire(&c) == GREEN);
	CHECK(seqlint_load_acquire(&p) == &x);
	const uint32_t cu = 42;
	CHECK(seqlint_load_acquire(&cu) == 42);
#ifdef SEQLINT__HAVE_64
	uint64_t u64 = 0;
	seqlint_store_release(&u64, 0x0123456789abcdefull);
	CHECK(seqlint_load_acquire(&u64) == 0x0123456789abcdefull);
	seqlint_write_once(u64, 7);
	CHECK(seqlint_read_once(u64) == 7);
#endif
	seqlint_write_once(u8, 1);
	seqlint_write_once(u16, 2);
	seqlint_write_once(u32, 3);
	seqlint_write_once(p, NULL);
	CHECK(seqlint_read_once(u8) == 1 && seqlint_read_once(u16) == 2 &&
	      seqlint_read_once(u32) == 3 && seqlint_read_once(p) == NULL);
	/* the result has the unqualified type of the operand */
	const int ci = -7;
	CHECK(seqlint_read_once(ci) == -7);
	CHECK(sizeof(seqlint_read_once(u8)) == 1);
}

/* ---- Linux names -------------------------------------------------------- */
struct kstats {
	seqcount_t seq;
	unsigned long packets, bytes;
};
static struct kstats ks = { .seq = SEQCNT_ZERO(ks.seq) };
static DEFINE_SEQLOCK(klock);
static seqlock_t klock2 = __SEQLOCK_UNLOCKED(klock2);
static unsigned long kval;

static void kstats_add(unsigned long len)
{
	write_seqcount_begin(&ks.seq);
	WRITE_ONCE(ks.packets, ks.packets + 1);
	WRITE_ONCE(ks.bytes, ks.bytes + len);
	write_seqcount_end(&ks.seq);
}

static void kstats_read(unsigned long *packets, unsigned long *bytes)
{
	unsigned seq;
	do {
		seq = read_seqcount_begin(&ks.seq);
		*packets = READ_ONCE(ks.packets);
		*bytes = READ_ONCE(ks.bytes);
	} while (read_seqcount_retry(&ks.seq, seq));
}

static void test_linux(void)
{
	unsigned long p, b;
	kstats_add(100);
	kstats_add(50);
	kstats_read(&p, &b);
	CHECK(p == 2 && b == 150);
	CHECK(raw_read_seqcount_begin(&ks.seq) == 4);

	seqcount_t s;
	seqcount_init(&s);
	CHECK(read_seqcount_begin(&s) == 0);

	unsigned seq = read_seqbegin(&klock);
	write_seqlock(&klock);
	WRITE_ONCE(kval, 9);
	write_sequnlock(&klock);
	CHECK(read_seqretry(&klock, seq));
	seq = read_seqbegin(&klock);
	CHECK(READ_ONCE(kval) == 9 && !read_seqretry(&klock, seq));

	seqlock_init(&klock2);
	CHECK(read_seqbegin(&klock2) == 0);

	int flag = 0, data = 0;
	WRITE_ONCE(data, 5);
	smp_wmb();
	smp_store_release(&flag, 1);
	CHECK(smp_load_acquire(&flag) == 1);
	smp_rmb();
	smp_mb();
	barrier();
	cpu_relax();
	CHECK(READ_ONCE(data) == 5);
}

int main(void)
{
	test_seqcount();
	test_copy();
	test_objects();
	test_seqlock();
	test_latch();
	test_barriers();
	test_linux();
	if (failures) {
		printf("unit: %d of %d checks failed (arch %s)\n", failures, checks,
		       SEQLINT_ARCH);
		return 1;
	}
	printf("unit: all %d checks passed (arch %s)\n", checks, SEQLINT_ARCH);
	return 0;
}
