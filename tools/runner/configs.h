/* seqlint runner: the configurations of a file — entries of
 * compile_commands.json that compile one source file with different flags
 * (Concurrency Kit's regressions build one .c with -DLATENCY and again with
 * -DTHROUGHPUT; a barrier bug can live in one #ifdef branch only). */
#ifndef SEQLINT_CONFIGS_H
#define SEQLINT_CONFIGS_H

#include "findings.h"
#include "job.h"

/* Keeps one configuration of each file among the database's jobs: the
 * first by compile arguments, then directory (job_cmp_command()), so the
 * choice does not depend on the order of the entries. Jobs that already
 * failed and jobs of files named without -p are kept. Returns how many
 * jobs were dropped. */
size_t configs_select(jobvec *jobs);

/* For a file analysed in two or more configurations: a finding that some of
 * them reported and others did not gets a note at its location naming the
 * flags of each (those not shared by every configuration of the file).
 * `jobs` are the run's jobs; a finding's found_in holds their ranks. Notes
 * are not part of a fingerprint. */
void configs_note(findvec *all, const jobvec *jobs);

#endif
