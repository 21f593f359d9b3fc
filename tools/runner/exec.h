/* seqlint runner: the analysis run — each pending job compiled with the
 * plugin on the process pool (pool.h), its diagnostics read back into
 * findings and coverage, and the progress shown. */
#ifndef SEQLINT_EXEC_H
#define SEQLINT_EXEC_H

#include "job.h"

/* Flags a substituted clang rejected ("unknown argument"): learnt from the
 * first compile that fails on them, which runs again without them, and
 * left out of every command started after that. One filter serves every
 * run_jobs() of a run (the counters round, the join). */
typedef struct {
  strmap dropped;
} flag_filter;
void flag_filter_free(flag_filter *f);

/* Runs every pending job, at most `jobs` at a time, with their temporary
 * files in tmpdir (NULL: every job fails). Returns 0, or the signal number
 * that interrupted the run. */
int run_jobs(jobvec *jv, unsigned jobs, const char *tmpdir, flag_filter *flags);
/* Progress: on a terminal a line rewritten in place; otherwise a plain line
 * every `interval` seconds (negative: keep the default, 10 s; 0: every
 * file). quiet: neither. */
void set_progress(int quiet, double interval);

#endif
