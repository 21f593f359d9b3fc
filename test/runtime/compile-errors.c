// Misuse that C can catch is a compile-time error, with a message that says
// what is wrong.  Each case is compiled on its own; the file without any
// CASE_ macro must compile cleanly, so the errors come from the cases.
//
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror %runtime_cflags %s
// RUN: not %clang -fsyntax-only %runtime_cflags -DCASE_SIZE %s 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: not %clang -fsyntax-only %runtime_cflags -DCASE_ALIGN %s 2>&1 | FileCheck %s --check-prefix=ALIGN
// RUN: not %clang -fsyntax-only %runtime_cflags -DCASE_TYPE_MISMATCH %s 2>&1 | FileCheck %s --check-prefix=MISMATCH
// RUN: not %clang -fsyntax-only %runtime_cflags -DCASE_CONST_DST %s 2>&1 | FileCheck %s --check-prefix=CONSTDST
// RUN: not %clang -fsyntax-only %runtime_cflags -DCASE_WRONG_PTR %s 2>&1 | FileCheck %s --check-prefix=WRONGPTR
// RUN: not %clang -fsyntax-only %runtime_cflags -DCASE_VOID_PTR %s 2>&1 | FileCheck %s --check-prefix=WRONGPTR
// RUN: not %clang -fsyntax-only %runtime_cflags -DCASE_SEQLOCK_AS_SEQCOUNT %s 2>&1 | FileCheck %s --check-prefix=WRONGPTR
// RUN: not %clang -fsyntax-only %runtime_cflags -DCASE_WRITE_CONST %s 2>&1 | FileCheck %s --check-prefix=WRITECONST
// RUN: not %clang -fsyntax-only %runtime_cflags -DCASE_LINUX_WRONG_PTR %s 2>&1 | FileCheck %s --check-prefix=WRONGPTR
// RUN: not %clang -fsyntax-only %runtime_cflags -DCASE_ACQUIRE_STRUCT %s 2>&1 | FileCheck %s --check-prefix=ACQSTRUCT
// RUN: not %clang -fsyntax-only %runtime_cflags -DCASE_ONCE_SIZE %s 2>&1 | FileCheck %s --check-prefix=ONCESIZE
// RUN: not %clang -fsyntax-only -I%runtime_inc -std=c99 %s 2>&1 | FileCheck %s --check-prefix=C99
// RUN: not %clang -fsyntax-only -I%runtime_inc -x c++ -std=c++17 %s 2>&1 | FileCheck %s --check-prefix=CXX
// The same diagnostics with GCC:
// RUN: %if gcc %{ not %gcc -fsyntax-only %runtime_cflags -DCASE_SIZE %s 2>&1 | FileCheck %s --check-prefix=SIZE %}
// RUN: %if gcc %{ not %gcc -fsyntax-only %runtime_cflags -DCASE_ALIGN %s 2>&1 | FileCheck %s --check-prefix=ALIGN %}
// RUN: %if gcc %{ not %gcc -fsyntax-only %runtime_cflags -DCASE_WRONG_PTR %s 2>&1 | FileCheck %s --check-prefix=GCCWRONGPTR %}

#include <seqlint/linux.h>
// C99: error: "the seqlint runtime needs C11 or later (-std=c11 or -std=gnu11)"
// CXX: error: "the seqlint runtime headers are C (C11 or later), not C++"

struct ok { uint32_t a, b; };
static seqlint_seqcount_t sc;
static struct ok shared_ok;

void fine(void)
{
	struct ok local;
	seqlint_read_object(&sc, &shared_ok, &local);
	seqlint_write_object(&sc, &shared_ok, &local);
}

#ifdef CASE_SIZE
struct six { uint16_t a, b, c; };	/* 6 bytes: not a whole number of words */
static struct six shared6;
void f(struct six *out) { seqlint_copy_out(out, &shared6); }
// SIZE: error: {{.*}}seqlint_copy_out: object size must be a multiple of 4 bytes
#endif

#ifdef CASE_ALIGN
struct __attribute__((packed)) pk { uint32_t a; uint32_t b; };	/* align 1 */
static struct pk sharedpk;
void f(struct pk *in) { seqlint_copy_in(&sharedpk, in); }
// ALIGN: error: {{.*}}seqlint_copy_in: object type must be at least 4-byte aligned
#endif

#ifdef CASE_TYPE_MISMATCH
struct other { uint32_t x, y; };
void f(struct other *out) { seqlint_copy_out(out, &shared_ok); }
// MISMATCH: error: {{.*}}seqlint_copy_out: dst and src must point to objects of the same type
#endif

#ifdef CASE_CONST_DST
void f(const struct ok *out) { seqlint_copy_out(out, &shared_ok); }
// CONSTDST: error: {{.*}}read-only
#endif

#ifdef CASE_WRONG_PTR
int counter;
unsigned f(void) { return seqlint_read_begin(&counter); }
// WRONGPTR: error: controlling expression type {{.*}} not compatible with any generic association type
// GCCWRONGPTR: error: {{.+}}_Generic{{.+}} selector of type {{.+}}int *{{.+}} is not compatible with any association
#endif

#ifdef CASE_VOID_PTR
void *vp;
void f(void) { seqlint_write_begin(vp); }
#endif

#ifdef CASE_SEQLOCK_AS_SEQCOUNT
seqlint_seqlock_t sl;
void f(void) { seqlint_write_begin(&sl); }
#endif

#ifdef CASE_WRITE_CONST
const seqlint_seqcount_t csc;
void f(void) { seqlint_write_begin(&csc); }
// WRITECONST: error: controlling expression type 'const seqlint_seqcount_t *'{{.*}} not compatible with any generic association type
#endif

#ifdef CASE_LINUX_WRONG_PTR
seqlock_t ksl;
void f(void) { write_seqcount_begin(&ksl); }
#endif

#ifdef CASE_ACQUIRE_STRUCT
struct ok so;
void f(void) { struct ok v = smp_load_acquire(&so); (void)v; }
// ACQSTRUCT: error: address argument to atomic operation must be a pointer to integer or pointer
#endif

#ifdef CASE_ONCE_SIZE
struct sixteen { uint64_t a, b; } so2;
void f(void) { WRITE_ONCE(so2.a, 1); struct sixteen v = READ_ONCE(so2); (void)v; }
// ONCESIZE: error: {{.*}}seqlint_read_once: x must be a scalar of 1, 2, 4 or (on 64-bit targets) 8 bytes
#endif
