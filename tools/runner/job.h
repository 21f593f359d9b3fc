/* seqlint runner: a job — one translation unit to analyse (or the
 * program-wide join) — and the vector of them, in database order and in the
 * canonical order results are merged in. */
#ifndef SEQLINT_JOB_H
#define SEQLINT_JOB_H

#include "coverage.h"
#include "findings.h"
#include "util.h"

typedef enum { JOB_PENDING, JOB_RUNNING, JOB_OK, JOB_FAILED } job_state;

typedef struct {
  size_t index;    /* in the database (or command line) order: runs first */
  size_t rank;     /* in an order that does not depend on the database's
                      (main file, then arguments): summaries are named by
                      it and results are merged in it (canonical_order()) */
  char *display;   /* main file, for progress and messages */
  char *directory; /* where the compiler runs */
  strvec args;     /* compiler command, without the .dia output */
  int substituted; /* argv[0] replaced by the configured clang */
  int retried;
  job_state state;
  char *error; /* why the file could not be analysed */
  findvec findings;
  char *dia_path, *err_path;
  int want_summary;   /* pass -fplugin-arg-seqlint-summary= (compile jobs) */
  char *summary_path; /* in the temporary directory, kept for the join */
  char *counters_path; /* the TU's counters and candidates (compile jobs) */
  char *known_path;    /* other TUs' counters, for the second round */
  char *saved_summary, *saved_counters; /* seqlint merge: from the shard */
  int db_entry;       /* from an entry of compile_commands.json */
  coverage_t coverage; /* the plugin's statistics lines (JOB_OK) */
} job_t;

typedef struct {
  job_t **v;
  size_t n, cap;
} jobvec;

void jv_push(jobvec *jv, job_t *j);
/* Keeps the jobs for which keep() says 1, in order (renumbered), and frees
 * the others; returns how many were dropped. */
size_t jv_retain(jobvec *jv, int (*keep)(const job_t *, void *), void *arg);
/* Frees every job and the vector. */
void jv_free(jobvec *jv);
/* Sets every job's rank: its place when the jobs are sorted by main file,
 * then by compile arguments. Findings, notes and fingerprints must not
 * depend on the order of compile_commands.json (bear -- make -j writes it in
 * completion order) or on -j. */
void canonical_order(jobvec *jv);
/* Orders two jobs by their compile arguments, then their directory. */
int job_cmp_command(const job_t *x, const job_t *y);
/* Sorts jv by rank. */
void sort_by_rank(jobvec *jv);
void job_free(job_t *j);
job_t *job_new(const char *display, const char *directory);
void job_fail(job_t *j, char *error); /* takes ownership */

#endif
