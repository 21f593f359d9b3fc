/* seqlint runner: memory, strings, string vectors and maps, paths. */
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *g_prog = "seqlint";

static void out_of_memory(void) {
  static const char msg[] = "seqlint: error: out of memory\n";
  if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0) {
    /* nothing left to report it with */
  }
  _exit(2);
}

void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p)
    out_of_memory();
  return p;
}

void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p)
    out_of_memory();
  return p;
}

void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q)
    out_of_memory();
  return q;
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

char *xstrndup(const char *s, size_t n) {
  char *p = xmalloc(n + 1);
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *xasprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0)
    out_of_memory();
  char *p = xmalloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(p, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return p;
}

static void vmsg(const char *kind, const char *fmt, va_list ap) {
  fprintf(stderr, "%s: %s: ", g_prog, kind);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

void err_msg(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmsg("error", fmt, ap);
  va_end(ap);
}

void note_msg(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmsg("note", fmt, ap);
  va_end(ap);
}

/* ---- string vector ---------------------------------------------------- */

void sv_push_own(strvec *sv, char *s) {
  if (sv->n + 2 > sv->cap) {
    sv->cap = sv->cap ? sv->cap * 2 : 16;
    sv->v = xrealloc(sv->v, sv->cap * sizeof *sv->v);
  }
  sv->v[sv->n++] = s;
  sv->v[sv->n] = NULL;
}

void sv_push(strvec *sv, const char *s) { sv_push_own(sv, xstrdup(s)); }

void sv_free(strvec *sv) {
  for (size_t i = 0; i < sv->n; i++)
    free(sv->v[i]);
  free(sv->v);
  sv->v = NULL;
  sv->n = sv->cap = 0;
}

char **sv_argv(strvec *sv) {
  if (!sv->v) {
    sv->cap = 4;
    sv->v = xcalloc(sv->cap, sizeof *sv->v);
  }
  return sv->v;
}

/* ---- string map (open addressing, FNV-1a) ------------------------------ */

uint64_t fnv1a_str(const char *s) {
  uint64_t h = 1469598103934665603ULL;
  for (; *s; s++) {
    h ^= (unsigned char)*s;
    h *= 1099511628211ULL;
  }
  return h;
}

static size_t sm_find(const strmap *m, const char *key) {
  size_t i = (size_t)fnv1a_str(key) & (m->cap - 1);
  while (m->keys[i] && strcmp(m->keys[i], key) != 0)
    i = (i + 1) & (m->cap - 1);
  return i;
}

static void sm_grow(strmap *m) {
  strmap n = {0};
  n.cap = m->cap ? m->cap * 2 : 64;
  n.keys = xcalloc(n.cap, sizeof *n.keys);
  n.vals = xcalloc(n.cap, sizeof *n.vals);
  for (size_t i = 0; i < m->cap; i++) {
    if (!m->keys[i])
      continue;
    size_t j = sm_find(&n, m->keys[i]);
    n.keys[j] = m->keys[i];
    n.vals[j] = m->vals[i];
    n.n++;
  }
  free(m->keys);
  free(m->vals);
  *m = n;
}

void **sm_slot(strmap *m, const char *key, int *created) {
  if ((m->n + 1) * 2 > m->cap)
    sm_grow(m);
  size_t i = sm_find(m, key);
  if (created)
    *created = !m->keys[i];
  if (!m->keys[i]) {
    m->keys[i] = xstrdup(key);
    m->vals[i] = NULL;
    m->n++;
  }
  return &m->vals[i];
}

void *sm_get(const strmap *m, const char *key) {
  if (!m->cap)
    return NULL;
  size_t i = sm_find(m, key);
  return m->keys[i] ? m->vals[i] : NULL;
}

void sm_free(strmap *m, void (*free_val)(void *)) {
  for (size_t i = 0; i < m->cap; i++) {
    if (!m->keys[i])
      continue;
    free(m->keys[i]);
    if (free_val)
      free_val(m->vals[i]);
  }
  free(m->keys);
  free(m->vals);
  memset(m, 0, sizeof *m);
}

/* ---- strings and paths ------------------------------------------------- */

int starts_with(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

char *path_join(const char *dir, const char *name) {
  if (name[0] == '/' || !dir || !dir[0])
    return xstrdup(name);
  size_t n = strlen(dir);
  return xasprintf("%s%s%s", dir, (n && dir[n - 1] == '/') ? "" : "/", name);
}

char *path_normalize(const char *abs) {
  size_t len = strlen(abs);
  char *out = xmalloc(len + 2);
  size_t o = 0;
  const char *p = abs;
  while (*p) {
    while (*p == '/')
      p++;
    const char *end = strchr(p, '/');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (n == 0)
      break;
    if (n == 1 && p[0] == '.') {
      /* skip */
    } else if (n == 2 && p[0] == '.' && p[1] == '.') {
      while (o > 0 && out[o - 1] != '/')
        o--;
      if (o > 0)
        o--; /* the slash */
    } else {
      out[o++] = '/';
      memcpy(out + o, p, n);
      o += n;
    }
    p += n;
  }
  if (o == 0)
    out[o++] = '/';
  out[o] = '\0';
  return out;
}

static char *g_cwd;

const char *cwd_path(void) {
  if (!g_cwd) {
    char *buf = getcwd(NULL, 0);
    if (!buf) {
      err_msg("cannot determine the current directory: %s", strerror(errno));
      exit(2);
    }
    g_cwd = buf;
  }
  return g_cwd;
}

char *path_canonical(const char *dir, const char *name) {
  if (!name || !name[0])
    return xstrdup("");
  if (name[0] == '<')
    return xstrdup(name);
  char *full = path_join(dir && dir[0] ? dir : cwd_path(), name);
  char *real = realpath(full, NULL);
  if (real) {
    free(full);
    return real;
  }
  char *norm = path_normalize(full);
  free(full);
  return norm;
}

char *path_display(const char *canonical) {
  const char *cwd = cwd_path();
  size_t n = strlen(cwd);
  if (canonical[0] == '/' && strcmp(cwd, "/") != 0 && strncmp(canonical, cwd, n) == 0 &&
      canonical[n] == '/' && canonical[n + 1])
    return xstrdup(canonical + n + 1);
  return xstrdup(canonical);
}

/* ---- output files: a temporary file renamed over the target ---------------- */

FILE *ao_open(atomic_out *ao, const char *path) {
  memset(ao, 0, sizeof *ao);
  struct stat st;
  int exists = stat(path, &st) == 0;
  if (exists && !S_ISREG(st.st_mode)) {
    /* A device or a pipe (/dev/stdout, /dev/full, a FIFO): written in place. */
    ao->fp = fopen(path, "w");
    return ao->fp;
  }
  ao->path = xstrdup(path);
  ao->tmp = xasprintf("%s.tmp-XXXXXX", path);
  int fd = mkstemp(ao->tmp);
  if (fd < 0) {
    int e = errno;
    free(ao->path);
    free(ao->tmp);
    ao->path = ao->tmp = NULL;
    errno = e;
    return NULL;
  }
  /* An existing file keeps its permissions; a new one gets the usual ones. */
  mode_t mode = 0666;
  if (exists) {
    mode = st.st_mode & 07777;
  } else {
    mode_t mask = umask(0);
    umask(mask);
    mode &= ~mask;
  }
  fchmod(fd, mode);
  ao->fp = fdopen(fd, "w");
  if (!ao->fp) {
    int e = errno;
    close(fd);
    unlink(ao->tmp);
    free(ao->path);
    free(ao->tmp);
    ao->path = ao->tmp = NULL;
    errno = e;
  }
  return ao->fp;
}

int ao_close(atomic_out *ao, int commit) {
  int rc = 0, e = 0;
  if (ao->fp && fclose(ao->fp) != 0) {
    rc = -1;
    e = errno;
  }
  ao->fp = NULL;
  if (ao->tmp) {
    if (rc == 0 && commit && rename(ao->tmp, ao->path) != 0) {
      rc = -1;
      e = errno;
    }
    if (rc != 0 || !commit)
      unlink(ao->tmp);
  }
  free(ao->path);
  free(ao->tmp);
  ao->path = ao->tmp = NULL;
  errno = e;
  return rc;
}

char *make_temp_dir(void) {
  const char *base = getenv("TMPDIR");
  if (!base || !base[0])
    base = "/tmp";
  char *tmpl = xasprintf("%s/seqlint-XXXXXX", base);
  if (!mkdtemp(tmpl)) {
    err_msg("cannot create a temporary directory in '%s': %s", base, strerror(errno));
    free(tmpl);
    return NULL;
  }
  return tmpl;
}

