/* seqlint runner: findings (dedupe, order, fingerprints), the source cache and
 * baselines. */
#include "findings.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- basic objects ----------------------------------------------------- */

void loc_set(loc_t *l, const char *dir, const char *name, unsigned line, unsigned col) {
  l->abs = path_canonical(dir, name);
  l->file = l->abs[0] ? path_display(l->abs) : xstrdup("");
  l->line = line;
  l->col = col;
}

void loc_free(loc_t *l) {
  free(l->file);
  free(l->abs);
  l->file = l->abs = NULL;
}

loc_t loc_dup(const loc_t *l) {
  loc_t c = *l;
  c.file = xstrdup(l->file);
  c.abs = xstrdup(l->abs);
  return c;
}

void finding_free(finding_t *f) {
  if (!f)
    return;
  free(f->check);
  loc_free(&f->loc);
  free(f->message);
  for (size_t i = 0; i < f->n_notes; i++) {
    loc_free(&f->notes[i].loc);
    free(f->notes[i].message);
  }
  free(f->notes);
  for (size_t i = 0; i < f->n_fixits; i++) {
    loc_free(&f->fixits[i].begin);
    free(f->fixits[i].replacement);
  }
  free(f->fixits);
  free(f->fingerprint);
  free(f->found_in);
  json_decref(f->configurations);
  free(f);
}

void fv_push(findvec *fv, finding_t *f) {
  if (fv->n == fv->cap) {
    fv->cap = fv->cap ? fv->cap * 2 : 16;
    fv->v = xrealloc(fv->v, fv->cap * sizeof *fv->v);
  }
  fv->v[fv->n++] = f;
}

void fv_free(findvec *fv) {
  for (size_t i = 0; i < fv->n; i++)
    finding_free(fv->v[i]);
  free(fv->v);
  memset(fv, 0, sizeof *fv);
}

json_t *json_str(const char *s) {
  json_t *j = json_string(s ? s : "");
  if (j)
    return j;
  /* Not UTF-8 (a Latin-1 comment, a raw byte in a path): keep ASCII. */
  char *copy = xstrdup(s);
  for (char *p = copy; *p; p++)
    if ((unsigned char)*p >= 0x80)
      *p = '?';
  j = json_string(copy);
  free(copy);
  return j ? j : json_string("");
}

/* ---- source cache ------------------------------------------------------ */

typedef struct {
  char *data;
  size_t len;
  size_t *starts; /* offset of each line */
  size_t nlines;
} source_t;

static strmap g_sources;

static void source_free(void *p) {
  source_t *s = p;
  if (!s)
    return;
  free(s->data);
  free(s->starts);
  free(s);
}

void source_cache_free(void) { sm_free(&g_sources, source_free); }

enum { MAX_SOURCE_BYTES = 256 * 1024 * 1024 };

static source_t *source_load(const char *abs) {
  source_t *s = xcalloc(1, sizeof *s);
  int fd = open(abs, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return s;
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < MAX_SOURCE_BYTES) {
    size_t cap = (size_t)st.st_size + 1;
    s->data = xmalloc(cap);
    for (;;) {
      if (s->len + 1 >= cap) {
        if (cap >= MAX_SOURCE_BYTES)
          break;
        cap *= 2;
        s->data = xrealloc(s->data, cap);
      }
      ssize_t r = read(fd, s->data + s->len, cap - 1 - s->len);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        break;
      s->len += (size_t)r;
    }
    s->data[s->len] = '\0';
  }
  close(fd);
  size_t cap = 64;
  s->starts = xmalloc(cap * sizeof *s->starts);
  s->starts[s->nlines++] = 0;
  for (size_t i = 0; i < s->len; i++) {
    if (s->data[i] != '\n')
      continue;
    if (s->nlines == cap) {
      cap *= 2;
      s->starts = xrealloc(s->starts, cap * sizeof *s->starts);
    }
    s->starts[s->nlines++] = i + 1;
  }
  return s;
}

const char *source_line(const char *abs, unsigned line, size_t *len) {
  *len = 0;
  if (!abs || abs[0] != '/' || line == 0)
    return NULL;
  int created;
  void **slot = sm_slot(&g_sources, abs, &created);
  if (created)
    *slot = source_load(abs);
  source_t *s = *slot;
  if (!s->data || line > s->nlines)
    return NULL;
  size_t b = s->starts[line - 1];
  size_t e = line < s->nlines ? s->starts[line] - 1 : s->len;
  if (e > b && s->data[e - 1] == '\r')
    e--;
  if (e < b)
    e = b;
  *len = e - b;
  return s->data + b;
}

/* ---- dedupe, order, fingerprints ----------------------------------------- */

static char *dedupe_key(const finding_t *f) {
  return xasprintf("%s\x1f%s\x1f%u\x1f%u\x1f%s", f->check, f->loc.abs, f->loc.line, f->loc.col,
                   f->message);
}

static void add_origin(finding_t *f, size_t origin) {
  if (f->n_found_in && f->found_in[f->n_found_in - 1] == origin)
    return; /* one job, the same finding twice (a header included twice) */
  f->found_in = xrealloc(f->found_in, (f->n_found_in + 1) * sizeof *f->found_in);
  f->found_in[f->n_found_in++] = origin;
}

static int same_note(const note_t *a, const note_t *b) {
  return a->loc.line == b->loc.line && a->loc.col == b->loc.col &&
         strcmp(a->loc.abs, b->loc.abs) == 0 && strcmp(a->message, b->message) == 0;
}

/* The notes of another report of f (another configuration of its file,
 * another TU that includes its header) that f lacks, when they point into
 * f's own file: the evidence of every configuration is kept. Notes in
 * other files (the including TU's call site) are that TU's, not f's. */
static void add_missing_notes(finding_t *f, const finding_t *other) {
  for (size_t i = 0; i < other->n_notes; i++) {
    const note_t *n = &other->notes[i];
    if (strcmp(n->loc.abs, f->loc.abs) != 0)
      continue;
    int have = 0;
    for (size_t k = 0; k < f->n_notes && !have; k++)
      have = same_note(&f->notes[k], n);
    if (have)
      continue;
    f->notes = xrealloc(f->notes, (f->n_notes + 1) * sizeof *f->notes);
    note_t *c = &f->notes[f->n_notes++];
    c->loc = loc_dup(&n->loc);
    c->message = xstrdup(n->message);
  }
}

void findings_merge(findvec *into, strmap *seen, findvec *from, size_t origin) {
  for (size_t i = 0; i < from->n; i++) {
    char *key = dedupe_key(from->v[i]);
    int created;
    void **slot = sm_slot(seen, key, &created);
    free(key);
    if (created) {
      *slot = from->v[i];
      add_origin(from->v[i], origin);
      fv_push(into, from->v[i]);
    } else {
      add_origin(*slot, origin);
      add_missing_notes(*slot, from->v[i]);
      finding_free(from->v[i]);
    }
  }
  free(from->v);
  memset(from, 0, sizeof *from);
}

static int cmp_finding(const void *a, const void *b) {
  const finding_t *x = *(finding_t *const *)a, *y = *(finding_t *const *)b;
  int c = strcmp(x->loc.file, y->loc.file);
  if (c)
    return c;
  if (x->loc.line != y->loc.line)
    return x->loc.line < y->loc.line ? -1 : 1;
  if (x->loc.col != y->loc.col)
    return x->loc.col < y->loc.col ? -1 : 1;
  if ((c = strcmp(x->check, y->check)))
    return c;
  return strcmp(x->message, y->message);
}

typedef struct {
  uint64_t h;
} fnv64;

static void fnv_bytes(fnv64 *f, const char *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    f->h ^= (unsigned char)p[i];
    f->h *= 1099511628211ULL;
  }
}

static void fnv_field(fnv64 *f, const char *p, size_t n) {
  fnv_bytes(f, p, n);
  fnv_bytes(f, "", 1); /* separator: a NUL byte */
}

/* Hash of check, file, message and the source line's text with whitespace
 * runs collapsed and trimmed — not the line number, so the fingerprint
 * survives code moving up or down. */
static uint64_t finding_hash(const finding_t *f) {
  fnv64 h = {1469598103934665603ULL};
  fnv_field(&h, f->check, strlen(f->check));
  fnv_field(&h, f->loc.file, strlen(f->loc.file));
  fnv_field(&h, f->message, strlen(f->message));
  size_t len;
  const char *text = source_line(f->loc.abs, f->loc.line, &len);
  int pending_space = 0, any = 0;
  for (size_t i = 0; text && i < len; i++) {
    if (isspace((unsigned char)text[i])) {
      pending_space = any;
      continue;
    }
    if (pending_space)
      fnv_bytes(&h, " ", 1);
    fnv_bytes(&h, &text[i], 1);
    pending_space = 0;
    any = 1;
  }
  fnv_bytes(&h, "", 1);
  return h.h;
}

void findings_finalize(findvec *fv) {
  if (fv->n > 1)
    qsort(fv->v, fv->n, sizeof *fv->v, cmp_finding);
  strmap occurrences = {0};
  for (size_t i = 0; i < fv->n; i++) {
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)finding_hash(fv->v[i]));
    void **slot = sm_slot(&occurrences, hex, NULL);
    uintptr_t n = (uintptr_t)*slot + 1; /* 1-based index among equal hashes */
    *slot = (void *)n;
    free(fv->v[i]->fingerprint);
    fv->v[i]->fingerprint = xasprintf("%s:%lu", hex, (unsigned long)n);
  }
  sm_free(&occurrences, NULL);
}

/* ---- baselines --------------------------------------------------------- */

int baseline_load(const char *path, strmap *fingerprints) {
  json_error_t jerr;
  json_t *root = json_load_file(path, 0, &jerr);
  if (!root) {
    struct stat st;
    if (stat(path, &st) != 0)
      err_msg("cannot read baseline '%s': %s", path, strerror(errno));
    else
      err_msg("malformed baseline '%s': %s (line %d, column %d)", path, jerr.text, jerr.line,
              jerr.column);
    return -1;
  }
  int rc = -1;
  json_t *version = json_object_get(root, "version");
  json_t *list = json_object_get(root, "findings");
  if (!json_is_object(root) || !json_is_integer(version) || !json_is_array(list)) {
    err_msg("malformed baseline '%s': expected {\"version\": 1, \"findings\": [...]}", path);
    goto out;
  }
  if (json_integer_value(version) != 1) {
    err_msg("baseline '%s' has version %lld; this seqlint reads version 1", path,
            (long long)json_integer_value(version));
    goto out;
  }
  size_t i;
  json_t *entry;
  json_array_foreach(list, i, entry) {
    const char *fp = json_string_value(json_object_get(entry, "fingerprint"));
    if (!fp) {
      err_msg("malformed baseline '%s': finding %zu has no \"fingerprint\" string", path, i);
      goto out;
    }
    *sm_slot(fingerprints, fp, NULL) = (void *)1;
  }
  rc = 0;
out:
  json_decref(root);
  return rc;
}

int baseline_write(const char *path, const findvec *fv) {
  json_t *list = json_array();
  for (size_t i = 0; i < fv->n; i++) {
    const finding_t *f = fv->v[i];
    json_t *e = json_object();
    json_object_set_new(e, "check", json_str(f->check));
    json_object_set_new(e, "file", json_str(f->loc.file));
    json_object_set_new(e, "fingerprint", json_str(f->fingerprint));
    json_array_append_new(list, e);
  }
  json_t *root = json_object();
  json_object_set_new(root, "version", json_integer(1));
  json_object_set_new(root, "findings", list);

  int rc = -1;
  atomic_out ao;
  FILE *fp = ao_open(&ao, path);
  if (!fp) {
    err_msg("cannot write baseline '%s': %s", path, strerror(errno));
    json_decref(root);
    return -1;
  }
  int ok = json_dumpf(root, fp, JSON_INDENT(2)) == 0 && fputc('\n', fp) != EOF &&
           fflush(fp) == 0;
  int saved = errno;
  if (ao_close(&ao, ok) != 0 && ok) {
    ok = 0;
    saved = errno;
  }
  if (ok)
    rc = 0;
  else
    err_msg("cannot write baseline '%s': %s", path, strerror(saved ? saved : EIO));
  json_decref(root);
  return rc;
}
