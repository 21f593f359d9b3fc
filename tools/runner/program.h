/* seqlint runner: the program-wide rounds, after every translation unit
 * has compiled — the counters round (a unit analysed again with the
 * counters the others showed) and the join of the units' message-passing
 * summaries (barrier pairs across files). */
#ifndef SEQLINT_PROGRAM_H
#define SEQLINT_PROGRAM_H

#include "args.h"
#include "exec.h"
#include "job.h"

/* Counters across translation units: a TU that uses a field like a counter
 * without the evidence (plain increments around plain stores, no barrier)
 * while another TU of the program uses the same field as one (its reader
 * tests the low bit and retries) is analysed again, told so. Only the TUs
 * with such a field run twice. Returns what run_jobs() returns. */
int run_counter_round(jobvec *jobs, unsigned njobs, const char *tmpdir, flag_filter *flags);
/* Runs the join of the summaries the compile jobs wrote, if any: the
 * plugin on an empty file with -fplugin-arg-seqlint-join=<tmpdir>. Its
 * findings are those of writer/reader pairs in different files; *out is
 * the join's job (NULL when there was nothing to join). Returns what
 * run_jobs() returns. */
int run_join(jobvec *jobs, const cmd_options *co, const char *tmpdir, flag_filter *flags,
             job_t **out);
/* Removes the summaries and counters files: they are needed until the join
 * has read them and the second round has run. */
void remove_summaries(jobvec *jobs);

#endif
