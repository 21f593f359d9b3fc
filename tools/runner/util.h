/* seqlint runner: memory, messages, strings, string vectors and maps,
 * paths, output files written whole. Depends on no other module. */
#ifndef SEQLINT_UTIL_H
#define SEQLINT_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

extern const char *g_prog; /* "seqlint" */

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Messages on stderr, prefixed with "seqlint: error: " etc. */
void err_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void note_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

typedef struct {
  char **v;
  size_t n, cap;
} strvec;
void sv_push(strvec *sv, const char *s);     /* copies s */
void sv_push_own(strvec *sv, char *s);       /* takes ownership */
void sv_free(strvec *sv);
char **sv_argv(strvec *sv);                  /* NULL-terminated view */

/* String-keyed hash map; keys are copied, values are caller-owned. */
typedef struct {
  char **keys;
  void **vals;
  size_t cap, n;
} strmap;
void **sm_slot(strmap *m, const char *key, int *created); /* inserts */
void *sm_get(const strmap *m, const char *key);
void sm_free(strmap *m, void (*free_val)(void *));

/* FNV-1a, 64 bits, of a NUL-terminated string (the string map's hash; the
 * shard of a file). */
uint64_t fnv1a_str(const char *s);
int starts_with(const char *s, const char *prefix);
int ends_with(const char *s, const char *suffix);
const char *base_name(const char *path);
char *path_join(const char *dir, const char *name);
char *path_normalize(const char *abs); /* lexical: removes ".", "..", "//" */
/* Absolute, canonical (realpath when the file exists, lexical otherwise).
 * Names like "<built-in>" are returned unchanged. */
char *path_canonical(const char *dir, const char *name);
/* Relative to the current directory when inside it, else absolute. */
char *path_display(const char *canonical);
/* A fresh directory under $TMPDIR (for the compilers' diagnostics and
 * summaries); NULL after printing an error. */
char *make_temp_dir(void);
const char *cwd_path(void);

/* Output files that are never left half-written: a temporary file next to
 * the target, renamed over it by ao_close(ao, 1) (removed by ao_close(ao, 0)
 * or on any error). Devices and pipes are written in place. NULL/-1 with
 * errno set on failure. */
typedef struct {
  FILE *fp;
  char *path, *tmp;
} atomic_out;
FILE *ao_open(atomic_out *ao, const char *path);
int ao_close(atomic_out *ao, int commit);

#endif
