/* seqlint runner: findings — their type, dedupe, order and fingerprints —,
 * the source cache and baselines. */
#ifndef SEQLINT_FINDINGS_H
#define SEQLINT_FINDINGS_H

#include "util.h"

typedef struct {
  char *file; /* display path; "" when unknown */
  char *abs;  /* canonical path; "" when unknown */
  unsigned line, col;
} loc_t;

typedef struct {
  loc_t loc;
  char *message;
} note_t;

typedef struct {
  loc_t begin;                /* start of the replaced range */
  unsigned end_line, end_col; /* exclusive end, same file */
  char *replacement;
} fixit_t;

typedef struct {
  char *check; /* without the "seqlint-" prefix */
  loc_t loc;
  unsigned end_line, end_col; /* 0 when the diagnostic has no range */
  char *message;              /* without the trailing "[seqlint-<check>]" */
  int is_error;               /* clang level: error (else warning) */
  note_t *notes;
  size_t n_notes;
  fixit_t *fixits;
  size_t n_fixits;
  char *fingerprint; /* set by findings_finalize() */
  size_t *found_in;  /* the ranks of the jobs that reported it (findings_merge()) */
  size_t n_found_in;
  /* Found in some configurations of a file only (configs_note()): one
   * object a file, {"file", "analysed", "foundIn", "notFoundIn"}, each
   * configuration as {"arguments": the flags the others lack, "directory"}.
   * NULL otherwise. */
  struct json_t *configurations;
} finding_t;

typedef struct {
  finding_t **v;
  size_t n, cap;
} findvec;

void loc_set(loc_t *l, const char *dir, const char *name, unsigned line, unsigned col);
void loc_free(loc_t *l);
loc_t loc_dup(const loc_t *l); /* a copy that owns its strings */
void finding_free(finding_t *f);
void fv_push(findvec *fv, finding_t *f);
void fv_free(findvec *fv); /* frees the findings too */

/* Source text cache (the line of a finding, for fingerprints and snippets). */
const char *source_line(const char *abs, unsigned line, size_t *len);
void source_cache_free(void);
/* JSON string from arbitrary bytes (invalid UTF-8 replaced). */
struct json_t;
struct json_t *json_str(const char *s);

/* Moves the findings of `from` (reported by the job of rank `origin`) into
 * `into` unless an identical finding (check, file, line, column, message)
 * is already there, which then records `origin` too in its found_in;
 * `seen` remembers what `into` holds. `from` is left empty. */
void findings_merge(findvec *into, strmap *seen, findvec *from, size_t origin);
/* Sorts (file, line, column, check, message) and computes fingerprints. */
void findings_finalize(findvec *fv);

/* Baseline: {"version":1,"findings":[{check,file,fingerprint}]} */
int baseline_load(const char *path, strmap *fingerprints); /* 0 ok */
int baseline_write(const char *path, const findvec *fv);   /* 0 ok */

#endif
