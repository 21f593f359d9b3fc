/* seqlint runner: the program-wide rounds (program.h). */
#include "program.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef SEQLINT_LLVM_MAJOR
#define SEQLINT_LLVM_MAJOR 19
#endif

/* Runs the join of the summaries the compile jobs wrote, if any: the
 * plugin on an empty file with -fplugin-arg-seqlint-join=<tmpdir>. Its
 * findings are those of writer/reader pairs in different files. Returns
 * what run_jobs() returns. */
int run_join(jobvec *jobs, const cmd_options *co, const char *tmpdir, flag_filter *flags,
             job_t **out) {
  size_t n = 0;
  struct stat st;
  for (size_t i = 0; i < jobs->n; i++) {
    job_t *j = jobs->v[i];
    if (j->state == JOB_OK && j->summary_path && stat(j->summary_path, &st) == 0)
      n++;
  }
  if (n < 2) /* pairs across files need two files */
    return 0;
  jobvec one = {0};
  job_t *j = job_new("(program-wide barrier pairing)", cwd_path());
  j->want_summary = 0;
  sv_push(&j->args, co->clang);
  sv_push(&j->args, "-fsyntax-only");
  sv_push(&j->args, "-fno-crash-diagnostics");
#if SEQLINT_LLVM_MAJOR >= 22
  sv_push(&j->args, "-Wuser-defined-warnings");
#endif
  sv_push_own(&j->args, xasprintf("-fplugin=%s", co->plugin));
  sv_push(&j->args, "-fplugin-arg-seqlint-no-werror");
  sv_push_own(&j->args, xasprintf("-fplugin-arg-seqlint-join=%s", tmpdir));
  sv_push(&j->args, "-x");
  sv_push(&j->args, "c");
  sv_push(&j->args, "/dev/null");
  jv_push(&one, j);
  j->index = j->rank = jobs->n; /* its temporary files apart from the compile jobs' */
  int sig = run_jobs(&one, 1, tmpdir, flags);
  free(one.v);
  *out = j;
  return sig;
}

/* The summaries are needed until the join has read them, the counters
 * files until the second round has run. */
void remove_summaries(jobvec *jobs) {
  for (size_t i = 0; i < jobs->n; i++) {
    job_t *j = jobs->v[i];
    const char *files[] = {j->summary_path, j->counters_path, j->known_path};
    for (size_t k = 0; k < sizeof files / sizeof *files; k++)
      if (files[k] && unlink(files[k]) != 0 && errno != ENOENT)
        err_msg("cannot remove '%s': %s", files[k], strerror(errno));
  }
}

/* A counter of some translation unit, from its counters file. */
typedef struct {
  size_t owner; /* the job that has it, or SIZE_MAX for two or more */
  char *line;   /* "counter\t<id>\t<parity>" */
} counter_t;

static void counter_free(void *p) {
  counter_t *c = p;
  free(c->line);
  free(c);
}

/* Calls fn(job, kind, id, line) for each "<kind>\t<id>..." line of the
 * job's counters file (a missing file has none: the TU did not compile). */
static void each_counter_line(job_t *j, void (*fn)(job_t *, const char *, char *, const char *,
                                                   void *),
                              void *arg) {
  FILE *f = j->counters_path ? fopen(j->counters_path, "r") : NULL;
  if (!f)
    return;
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  while ((len = getline(&line, &cap, f)) > 0) {
    if (line[len - 1] == '\n')
      line[--len] = '\0';
    char *full = xstrdup(line);
    char *tab = strchr(line, '\t');
    if (tab) {
      *tab = '\0';
      char *id = tab + 1;
      char *end = strchr(id, '\t');
      if (end)
        *end = '\0';
      fn(j, line, id, full, arg);
    }
    free(full);
  }
  free(line);
  fclose(f);
}

static void collect_counter(job_t *j, const char *kind, char *id, const char *line, void *arg) {
  if (strcmp(kind, "counter") != 0)
    return;
  int created;
  void **slot = sm_slot(arg, id, &created);
  if (created) {
    counter_t *c = xmalloc(sizeof *c);
    c->owner = j->index;
    c->line = xstrdup(line);
    *slot = c;
  } else if (((counter_t *)*slot)->owner != j->index) {
    ((counter_t *)*slot)->owner = SIZE_MAX;
  }
}

typedef struct {
  strmap *counters;
  FILE *out; /* the job's known-counters file, once one line is wanted */
  int failed;
} known_ctx;

static void write_known(job_t *j, const char *kind, char *id, const char *line, void *arg) {
  (void)line;
  known_ctx *k = arg;
  counter_t *c = strcmp(kind, "candidate") == 0 ? sm_get(k->counters, id) : NULL;
  if (!c || c->owner == j->index || k->failed)
    return;
  if (!k->out) {
    k->out = fopen(j->known_path, "w");
    if (!k->out) {
      err_msg("cannot create '%s': %s", j->known_path, strerror(errno));
      k->failed = 1;
      return;
    }
  }
  fprintf(k->out, "%s\n", c->line);
}

/* Counters across translation units: a TU that uses a field like a counter
 * without the evidence (plain increments around plain stores, no barrier)
 * while another TU of the program uses the same field as one (its reader
 * tests the low bit and retries) is analysed again, told so. Only the TUs
 * with such a field run twice. Returns what run_jobs() returns. */
int run_counter_round(jobvec *jobs, unsigned njobs, const char *tmpdir, flag_filter *flags) {
  strmap counters = {0};
  for (size_t i = 0; i < jobs->n; i++)
    if (jobs->v[i]->state == JOB_OK)
      each_counter_line(jobs->v[i], collect_counter, &counters);
  size_t again = 0;
  for (size_t i = 0; counters.n && i < jobs->n; i++) {
    job_t *j = jobs->v[i];
    if (j->state != JOB_OK || !j->counters_path)
      continue;
    free(j->known_path);
    j->known_path = xasprintf("%s/%zu.known", tmpdir, j->rank);
    known_ctx k = {&counters, NULL, 0};
    each_counter_line(j, write_known, &k);
    if (k.out && fclose(k.out) != 0) {
      err_msg("cannot write '%s': %s", j->known_path, strerror(errno));
      k.failed = 1;
    }
    if (!k.out || k.failed) {
      free(j->known_path);
      j->known_path = NULL;
      continue;
    }
    /* Its findings are those of the second run. */
    fv_free(&j->findings);
    memset(&j->coverage, 0, sizeof j->coverage);
    j->state = JOB_PENDING;
    again++;
  }
  sm_free(&counters, counter_free);
  if (!again)
    return 0;
  note_msg("analysing %zu %s again with the counters of other files", again,
           again == 1 ? "file" : "files");
  return run_jobs(jobs, njobs, tmpdir, flags);
}

