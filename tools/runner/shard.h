/* seqlint runner: one code base on N machines (--shard=K/N, seqlint merge). */
#ifndef SEQLINT_SHARD_H
#define SEQLINT_SHARD_H

#include "args.h"
#include "coverage.h"
#include "job.h"

/* "K/N", 1 <= K <= N: 0, or -1 when malformed. */
int shard_parse(const char *spec, unsigned *k, unsigned *n);
/* Keeps the jobs of shard K of N (by a hash of the main file's path as
 * displayed: the same split on every machine and run). */
void shard_select(jobvec *jobs, unsigned k, unsigned n);
/* Writes the analysed jobs' state (findings, coverage, summaries, counters)
 * to path. 0, or -1 after printing the error. */
int shard_write(const char *path, const char *spec, const jobvec *jobs, const cmd_options *co,
                const compdb_stats *db);
/* seqlint merge: loads every shard (all K of one N, run with the same checks
 * and config, which it sets in co), as jobs that have run; their summaries
 * and counters are written back under tmpdir. 0, or -1 after printing. */
int shard_load(char **paths, size_t npaths, jobvec *jobs, cmd_options *co, compdb_stats *db,
               int *have_db, const char *tmpdir);

#endif
