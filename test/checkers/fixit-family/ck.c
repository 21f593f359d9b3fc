// REQUIRES: ck-headers
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=barrier-unpaired,mp-missing-barrier -fsyntax-only %s 2>&1 | FileCheck %s
// RUN: %clang_plugin -fplugin-arg-seqlint-checks=mp-missing-barrier -fsyntax-only -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --check-prefix=FIXIT
// FIXIT: fix-it:"{{.*}}ck.c":{43:2-43:2}:"ck_pr_fence_store();\n\t"
/*
 * Concurrency Kit code gets Concurrency Kit's spellings in messages and
 * fix-its (issue 14): its fences are functions (ck_pr_fence_store()), not
 * macros, and it has no release store, so a release is "a store after
 * ck_pr_fence_release()".
 */
#include <ck_pr.h>

struct req {
	int status;
	int done;
};

void req_complete(struct req *r, int status)
{
	ck_pr_store_int(&r->status, status);
	ck_pr_fence_store();
	ck_pr_store_int(&r->done, 1);
}

int req_poll(struct req *r)
{
	if (!ck_pr_load_int(&r->done))
		return -1;
	return ck_pr_load_int(&r->status);
}
// CHECK: ck.c:27:7: warning: 'r->status' is read after 'r->done' {{.*}} publishes it with ck_pr_fence_store(): that ordering has no partner here; use a load followed by ck_pr_fence_acquire() for this load or put ck_pr_fence_load() after it [seqlint-barrier-unpaired]
// CHECK-NOT: smp_
// CHECK-NOT: atomic_thread_fence

struct job {
	int arg;
	int queued;
};

void job_post(struct job *j, int arg)
{
	j->arg = arg;
	ck_pr_store_int(&j->queued, 1);
}

int job_take(struct job *j)
{
	if (!ck_pr_load_int(&j->queued))
		return -1;
	return j->arg;
}
// CHECK: ck.c:43:2: warning: 'j->queued' is published {{.*}}; use a store after ck_pr_fence_release() for this store or put ck_pr_fence_store() before it [seqlint-mp-missing-barrier]
