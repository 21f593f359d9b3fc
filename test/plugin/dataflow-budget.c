// A dataflow analysis that runs out of its budget of block visits says so:
// a dataflow-cut line in the event dump and, under -fplugin-arg-seqlint-remarks,
// a remark at the function. dataflow-budget=N (testing) makes every budget N.
// RUN: %clang_plugin -fsyntax-only -fplugin-arg-seqlint-dataflow-budget=2 \
// RUN:   -fplugin-arg-seqlint-remarks -fplugin-arg-seqlint-dump-events %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CUT --implicit-check-not=access-context
// access-plain-reread (not on by default) runs one more, on wait_ready().
// RUN: %clang_plugin -fsyntax-only -fplugin-arg-seqlint-dataflow-budget=2 \
// RUN:   -fplugin-arg-seqlint-checks=access-plain-reread \
// RUN:   -fplugin-arg-seqlint-remarks -fplugin-arg-seqlint-dump-events %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REREAD
// With its own budget each analysis converges: nothing is reported.
// RUN: %clang_plugin -fsyntax-only -fplugin-arg-seqlint-remarks \
// RUN:   -fplugin-arg-seqlint-dump-events %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FULL --implicit-check-not=dataflow-cut \
// RUN:     --implicit-check-not=remark:
// RUN: %clang_plugin -fsyntax-only -fplugin-arg-seqlint-remarks \
// RUN:   -fplugin-arg-seqlint-checks=access-plain-reread \
// RUN:   -fplugin-arg-seqlint-dump-events %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FULL --implicit-check-not=dataflow-cut \
// RUN:     --implicit-check-not=remark:
// The budget must be a positive number.
// RUN: not %clang_plugin -fsyntax-only -fplugin-arg-seqlint-dataflow-budget=0 %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ZERO
#include <linux/seqlock.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

struct obj {
	seqcount_t sc;
	int a, b;
};

int reader(struct obj *o)
{
	unsigned seq;
	int sum;

	for (;;) {
		seq = read_seqcount_begin(&o->sc);
		sum = o->a;
		if (sum < 0)
			sum += o->b;
		if (!read_seqcount_retry(&o->sc, seq))
			break;
	}
	return sum;
}

struct port {
	int ready;
	int code;
};

int wait_ready(struct port *p, int tries)
{
	while (tries-- > 0)
		if (READ_ONCE(p->ready))
			return p->code;
	return -1;
}

/* An open-coded writer: the search for its bracketed stores is a dataflow. */
struct stat {
	unsigned int seq;
	int x;
};

void writer(struct stat *s, int n)
{
	while (n-- > 0) {
		WRITE_ONCE(s->seq, s->seq + 1);
		smp_wmb();
		s->x = n;
		smp_wmb();
		WRITE_ONCE(s->seq, s->seq + 1);
	}
}

// CUT-DAG: dataflow-cut analysis=writer-brackets function=writer budget=2
// CUT-DAG: dataflow-budget.c:[[#@LINE-12]]:6: remark: seqlint: the writer-brackets analysis of 'writer' stopped at its budget of 2 block visits before reaching a fixpoint; findings in it may be missing
// CUT-DAG: dataflow-cut analysis=locks function=reader budget=2
// CUT-DAG: dataflow-cut analysis=sections function=reader budget=2
// (The access contexts are read from the sections dataflow: no cut of their
// own.)
// CUT-DAG: dataflow-budget.c:34:5: remark: seqlint: the locks analysis of 'reader' stopped at its budget of 2 block visits before reaching a fixpoint; findings in it may be missing
// CUT-DAG: dataflow-budget.c:34:5: remark: seqlint: the sections analysis of 'reader' stopped at its budget of 2 block visits before reaching a fixpoint; findings in it may be missing

// REREAD-DAG: dataflow-cut analysis=reread function=wait_ready budget=2
// REREAD-DAG: dataflow-budget.c:55:5: remark: seqlint: the reread analysis of 'wait_ready' stopped at its budget of 2 block visits before reaching a fixpoint; findings in it may be missing

// FULL: function reader
// FULL: read-retry

// ZERO: error: seqlint: -fplugin-arg-seqlint-dataflow-budget= needs a positive number of block visits
