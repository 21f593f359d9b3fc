/* seqlint runner: the jobs to run — from compile_commands.json (read with
 * libclang's CXCompilationDatabase) or from files and "-- <flags>" — and
 * the compiler each one runs in (a compiler that is not the plugin's clang
 * is replaced by it). */
#ifndef SEQLINT_COMPDB_H
#define SEQLINT_COMPDB_H

#include "args.h"
#include "coverage.h"
#include "job.h"

/* Appends the jobs for the database in `dir` (all entries, or those of
 * `files`) and says in `st` how the entries were used (st->path is
 * allocated). Returns 0, or -1 after printing an error (database unusable). */
int compdb_jobs(const char *dir, char **files, size_t nfiles, const cmd_options *o, jobvec *out,
                compdb_stats *st);
/* Appends one job per file, compiled with o->extra_args. */
void file_jobs(char **files, size_t nfiles, const cmd_options *o, jobvec *out);
/* Frees the caches of compiler checks and notes. */
void compdb_cleanup(void);

#endif
