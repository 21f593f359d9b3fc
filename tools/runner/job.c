/* seqlint runner: jobs and the vector of them (job.h). */
#include "job.h"

#include <stdlib.h>
#include <string.h>

void jv_push(jobvec *jv, job_t *j) {
  if (jv->n == jv->cap) {
    jv->cap = jv->cap ? jv->cap * 2 : 64;
    jv->v = xrealloc(jv->v, jv->cap * sizeof *jv->v);
  }
  j->index = jv->n;
  jv->v[jv->n++] = j;
}

size_t jv_retain(jobvec *jv, int (*keep)(const job_t *, void *), void *arg) {
  size_t kept = 0, dropped = 0;
  for (size_t i = 0; i < jv->n; i++) {
    job_t *j = jv->v[i];
    if (keep(j, arg)) {
      j->index = kept;
      jv->v[kept++] = j;
    } else {
      job_free(j);
      dropped++;
    }
  }
  jv->n = kept;
  return dropped;
}

job_t *job_new(const char *display, const char *directory) {
  job_t *j = xcalloc(1, sizeof *j);
  j->display = xstrdup(display);
  j->directory = xstrdup(directory);
  j->state = JOB_PENDING;
  j->want_summary = 1;
  return j;
}

int job_cmp_command(const job_t *x, const job_t *y) {
  int c = 0;
  for (size_t i = 0; !c && i < x->args.n && i < y->args.n; i++)
    c = strcmp(x->args.v[i], y->args.v[i]);
  if (!c && x->args.n != y->args.n)
    c = x->args.n < y->args.n ? -1 : 1;
  return c ? c : strcmp(x->directory, y->directory);
}

static int cmp_canonical(const void *a, const void *b) {
  const job_t *x = *(job_t *const *)a, *y = *(job_t *const *)b;
  int c = strcmp(x->display, y->display);
  if (!c)
    c = job_cmp_command(x, y);
  if (!c) /* the same command twice: identical results either way */
    c = x->index < y->index ? -1 : x->index > y->index;
  return c;
}

void canonical_order(jobvec *jv) {
  if (!jv->n)
    return;
  job_t **sorted = xmalloc(jv->n * sizeof *sorted);
  memcpy(sorted, jv->v, jv->n * sizeof *sorted);
  qsort(sorted, jv->n, sizeof *sorted, cmp_canonical);
  for (size_t i = 0; i < jv->n; i++)
    sorted[i]->rank = i;
  free(sorted);
}

static int cmp_rank(const void *a, const void *b) {
  const job_t *x = *(job_t *const *)a, *y = *(job_t *const *)b;
  return x->rank < y->rank ? -1 : x->rank > y->rank;
}

void sort_by_rank(jobvec *jv) {
  if (jv->n)
    qsort(jv->v, jv->n, sizeof *jv->v, cmp_rank);
}

void jv_free(jobvec *jv) {
  for (size_t i = 0; i < jv->n; i++)
    job_free(jv->v[i]);
  free(jv->v);
  jv->v = NULL;
  jv->n = jv->cap = 0;
}

void job_fail(job_t *j, char *error) {
  j->state = JOB_FAILED;
  free(j->error);
  j->error = error;
  fv_free(&j->findings); /* findings of a TU that did not compile are not reported */
}

void job_free(job_t *j) {
  if (!j)
    return;
  free(j->display);
  free(j->directory);
  sv_free(&j->args);
  free(j->error);
  fv_free(&j->findings);
  free(j->dia_path);
  free(j->err_path);
  free(j->summary_path);
  free(j->counters_path);
  free(j->known_path);
  free(j->saved_summary);
  free(j->saved_counters);
  free(j);
}

