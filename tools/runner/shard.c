/* seqlint runner: one code base on N machines (--shard=K/N, seqlint merge).
 *
 * A shard analyses the translation units whose main file's path hashes to
 * it (FNV-1a of the path as displayed, so the split is the same on every
 * machine and every run) and saves, instead of a report, each unit's state:
 * its compile command, findings, coverage, message-passing summary and
 * counters. `seqlint merge` loads the shards and continues exactly where a
 * single-machine run would: the counters round (which compiles again, on
 * the merging machine, the few units that another unit's counter concerns),
 * the program-wide join over every summary, then one report. Shards and the
 * merge run from the same checkout path (summaries name files absolutely). */
#include "shard.h"

#include "output.h"

#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SHARD_FORMAT "seqlint-shard/1"

int shard_parse(const char *spec, unsigned *k, unsigned *n) {
  char *end = NULL;
  errno = 0;
  unsigned long a = strtoul(spec, &end, 10);
  if (errno || end == spec || *end != '/')
    return -1;
  const char *p = end + 1;
  unsigned long b = strtoul(p, &end, 10);
  if (errno || end == p || *end || b < 1 || b > 100000 || a < 1 || a > b)
    return -1;
  *k = (unsigned)a;
  *n = (unsigned)b;
  return 0;
}

typedef struct {
  unsigned k, n;
} shard_spec;

static int in_shard(const job_t *j, void *arg) {
  const shard_spec *s = arg;
  return fnv1a_str(j->display) % s->n == s->k - 1;
}

void shard_select(jobvec *jobs, unsigned k, unsigned n) {
  shard_spec s = {k, n};
  jv_retain(jobs, in_shard, &s);
}

/* ---- writing ----------------------------------------------------------------- */

static char *slurp(const char *path) {
  FILE *f = path ? fopen(path, "rb") : NULL;
  if (!f)
    return NULL;
  size_t len = 0, cap = 4096;
  char *buf = xmalloc(cap);
  size_t r;
  while ((r = fread(buf + len, 1, cap - len - 1, f)) > 0) {
    len += r;
    if (len + 1 == cap)
      buf = xrealloc(buf, cap *= 2);
  }
  buf[len] = '\0';
  fclose(f);
  return buf;
}

/* A finding as the JSON output has it, with the range of its location,
 * which that format leaves out. */
static json_t *finding_state(const finding_t *f) {
  json_t *o = finding_json(f);
  json_object_set_new(o, "end_line", json_integer(f->end_line));
  json_object_set_new(o, "end_column", json_integer(f->end_col));
  return o;
}

#define COVERAGE_FIELDS(X)                                                                   \
  X(functions) X(analysed) X(write_api) X(write_open) X(read_api) X(read_open) X(full)       \
  X(acq_rel) X(acquire) X(release) X(write) X(read) X(compiler) X(atomics) X(locks)         \
  X(mp_pairs) X(lines) X(protocol) X(no_protocol)

static json_t *coverage_state(const coverage_t *c) {
  json_t *o = json_object();
#define X(f) json_object_set_new(o, #f, json_integer((json_int_t)c->f));
  COVERAGE_FIELDS(X)
#undef X
  return o;
}

int shard_write(const char *path, const char *spec, const jobvec *jobs, const cmd_options *co,
                const compdb_stats *db) {
  json_t *root = json_object();
  json_object_set_new(root, "format", json_string(SHARD_FORMAT));
  json_object_set_new(root, "shard", json_string(spec));
  json_object_set_new(root, "checks", co->checks ? json_str(co->checks) : json_null());
  json_object_set_new(root, "config", co->config ? json_str(co->config) : json_null());
  json_object_set_new(root, "cwd", json_str(cwd_path()));
  if (db) {
    json_t *d = json_object();
    json_object_set_new(d, "path", json_str(db->path ? db->path : ""));
    json_object_set_new(d, "entries", json_integer((json_int_t)db->entries));
    json_object_set_new(d, "not_selected", json_integer((json_int_t)db->not_selected));
    json_object_set_new(d, "duplicates", json_integer((json_int_t)db->duplicates));
    json_object_set_new(d, "not_c", json_integer((json_int_t)db->not_c));
    json_object_set_new(d, "other_configurations", json_integer((json_int_t)db->other_configs));
    json_object_set_new(root, "database", d);
  }
  json_t *arr = json_array();
  for (size_t i = 0; i < jobs->n; i++) {
    const job_t *j = jobs->v[i];
    json_t *o = json_object();
    json_object_set_new(o, "display", json_str(j->display));
    json_object_set_new(o, "directory", json_str(j->directory));
    json_t *args = json_array();
    for (size_t k = 0; k < j->args.n; k++)
      json_array_append_new(args, json_str(j->args.v[k]));
    json_object_set_new(o, "args", args);
    json_object_set_new(o, "db_entry", json_boolean(j->db_entry));
    json_object_set_new(o, "substituted", json_boolean(j->substituted));
    json_object_set_new(o, "ok", json_boolean(j->state == JOB_OK));
    if (j->state != JOB_OK)
      json_object_set_new(o, "error", json_str(j->error ? j->error : "not run"));
    json_t *fs = json_array();
    for (size_t k = 0; k < j->findings.n; k++)
      json_array_append_new(fs, finding_state(j->findings.v[k]));
    json_object_set_new(o, "findings", fs);
    json_object_set_new(o, "coverage", coverage_state(&j->coverage));
    char *summary = j->state == JOB_OK ? slurp(j->summary_path) : NULL;
    char *counters = j->state == JOB_OK ? slurp(j->counters_path) : NULL;
    json_object_set_new(o, "summary", summary ? json_str(summary) : json_null());
    json_object_set_new(o, "counters", counters ? json_str(counters) : json_null());
    free(summary);
    free(counters);
    json_array_append_new(arr, o);
  }
  json_object_set_new(root, "units", arr);
  atomic_out ao = {0};
  FILE *f = ao_open(&ao, path);
  if (!f) {
    err_msg("cannot open '%s': %s", path, strerror(errno));
    json_decref(root);
    return -1;
  }
  int ok = json_dumpf(root, f, JSON_COMPACT) == 0 && fputc('\n', f) != EOF;
  json_decref(root);
  if (ao_close(&ao, ok) != 0 || !ok) {
    err_msg("cannot write '%s': %s", path, strerror(errno ? errno : EIO));
    return -1;
  }
  return 0;
}

/* ---- loading ----------------------------------------------------------------- */

static const char *str_of(json_t *o, const char *key) {
  json_t *v = json_object_get(o, key);
  return json_is_string(v) ? json_string_value(v) : NULL;
}

static unsigned uint_of(json_t *o, const char *key) {
  json_t *v = json_object_get(o, key);
  return json_is_integer(v) && json_integer_value(v) >= 0 ? (unsigned)json_integer_value(v) : 0;
}

/* A location as the shard displayed it ("file", "line", "column" of o):
 * relative to the current directory (the merge runs from the same one) or
 * absolute. */
static int loc_load(json_t *o, loc_t *l) {
  const char *file = str_of(o, "file");
  if (!file)
    return -1;
  if (file[0])
    loc_set(l, NULL, file, uint_of(o, "line"), uint_of(o, "column"));
  else {
    l->file = xstrdup("");
    l->abs = xstrdup("");
    l->line = uint_of(o, "line");
    l->col = uint_of(o, "column");
  }
  return 0;
}

static finding_t *finding_load(json_t *o) {
  const char *check = str_of(o, "check"), *msg = str_of(o, "message");
  json_t *notes = json_object_get(o, "notes"), *fixits = json_object_get(o, "fixits");
  if (!check || !msg || !json_is_array(notes) || !json_is_array(fixits))
    return NULL;
  finding_t *f = xcalloc(1, sizeof *f);
  f->check = xstrdup(check);
  f->message = xstrdup(msg);
  const char *level = str_of(o, "level");
  f->is_error = level && strcmp(level, "error") == 0;
  f->end_line = uint_of(o, "end_line");
  f->end_col = uint_of(o, "end_column");
  int bad = loc_load(o, &f->loc);
  f->n_notes = json_array_size(notes);
  f->notes = f->n_notes ? xcalloc(f->n_notes, sizeof *f->notes) : NULL;
  for (size_t k = 0; k < f->n_notes && !bad; k++) {
    json_t *n = json_array_get(notes, k);
    const char *m = str_of(n, "message");
    bad = !m || loc_load(n, &f->notes[k].loc);
    f->notes[k].message = xstrdup(m ? m : "");
  }
  f->n_fixits = json_array_size(fixits);
  f->fixits = f->n_fixits ? xcalloc(f->n_fixits, sizeof *f->fixits) : NULL;
  for (size_t k = 0; k < f->n_fixits && !bad; k++) {
    json_t *x = json_array_get(fixits, k);
    const char *r = str_of(x, "replacement");
    bad = !r || loc_load(x, &f->fixits[k].begin);
    f->fixits[k].end_line = uint_of(x, "end_line");
    f->fixits[k].end_col = uint_of(x, "end_column");
    f->fixits[k].replacement = xstrdup(r ? r : "");
  }
  if (bad) {
    finding_free(f);
    return NULL;
  }
  return f;
}

static int write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return -1;
  int ok = fputs(text, f) != EOF;
  return fclose(f) == 0 && ok ? 0 : -1;
}

int shard_load(char **paths, size_t npaths, jobvec *jobs, cmd_options *co, compdb_stats *db,
               int *have_db, const char *tmpdir) {
  unsigned total = 0;
  unsigned char *seen = NULL;
  char *checks = NULL, *config = NULL, *cwd = NULL;
  int rc = -1;
  for (size_t p = 0; p < npaths; p++) {
    json_error_t jerr;
    json_t *root = json_load_file(paths[p], 0, &jerr);
    if (!root) {
      err_msg("cannot read the shard '%s': %s (line %d)", paths[p], jerr.text, jerr.line);
      goto out;
    }
    const char *fmt = str_of(root, "format"), *spec = str_of(root, "shard");
    unsigned k, n;
    json_t *units = json_object_get(root, "units");
    if (!fmt || strcmp(fmt, SHARD_FORMAT) != 0 || !spec || shard_parse(spec, &k, &n) != 0 ||
        !json_is_array(units)) {
      err_msg("'%s' is not a seqlint shard (written by seqlint --shard=K/N -o FILE)", paths[p]);
      json_decref(root);
      goto out;
    }
    if (!total) {
      total = n;
      seen = xcalloc(n, 1);
    } else if (n != total) {
      err_msg("'%s' is shard %s, but the first shard was one of %u", paths[p], spec, total);
      json_decref(root);
      goto out;
    }
    if (seen[k - 1]) {
      err_msg("shard %s is given twice ('%s')", spec, paths[p]);
      json_decref(root);
      goto out;
    }
    seen[k - 1] = 1;
    const char *c = str_of(root, "checks"), *cf = str_of(root, "config"),
               *wd = str_of(root, "cwd");
    if (p == 0) {
      checks = c ? xstrdup(c) : NULL;
      config = cf ? xstrdup(cf) : NULL;
      cwd = xstrdup(wd ? wd : "");
    } else if ((!c != !checks) || (c && strcmp(c, checks) != 0) || (!cf != !config) ||
               (cf && strcmp(cf, config) != 0)) {
      err_msg("'%s' was run with other --checks or --config than '%s'", paths[p], paths[0]);
      json_decref(root);
      goto out;
    }
    if (wd && strcmp(wd, cwd_path()) != 0 && p == 0)
      note_msg("the shards ran in '%s', the merge runs in '%s': summaries name files "
               "absolutely, run both from the same checkout path",
               wd, cwd_path());
    json_t *d = json_object_get(root, "database");
    if (json_is_object(d) && !*have_db) {
      *have_db = 1;
      db->path = xstrdup(str_of(d, "path") ? str_of(d, "path") : "");
      db->entries = uint_of(d, "entries");
      db->not_selected = uint_of(d, "not_selected");
      db->duplicates = uint_of(d, "duplicates");
      db->not_c = uint_of(d, "not_c");
      db->other_configs = uint_of(d, "other_configurations");
    }
    size_t i;
    json_t *u;
    json_array_foreach(units, i, u) {
      const char *display = str_of(u, "display"), *dir = str_of(u, "directory");
      json_t *args = json_object_get(u, "args"), *fs = json_object_get(u, "findings");
      if (!display || !dir || !json_is_array(args) || !json_is_array(fs)) {
        err_msg("'%s': unit %zu is malformed", paths[p], i);
        json_decref(root);
        goto out;
      }
      job_t *j = job_new(display, dir);
      jv_push(jobs, j);
      const char *sum = str_of(u, "summary"), *cnt = str_of(u, "counters");
      j->saved_summary = sum ? xstrdup(sum) : NULL;
      j->saved_counters = cnt ? xstrdup(cnt) : NULL;
      size_t a;
      json_t *av;
      json_array_foreach(args, a, av) {
        const char *s = json_is_string(av) ? json_string_value(av) : "";
        /* this machine's plugin, for the units compiled again here */
        if (strncmp(s, "-fplugin=", 9) == 0)
          sv_push_own(&j->args, xasprintf("-fplugin=%s", co->plugin));
        else
          sv_push(&j->args, s);
      }
      j->db_entry = json_is_true(json_object_get(u, "db_entry"));
      j->substituted = json_is_true(json_object_get(u, "substituted"));
      json_t *cov = json_object_get(u, "coverage");
#define X(f) j->coverage.f = uint_of(cov, #f);
      COVERAGE_FIELDS(X)
#undef X
      if (!json_is_true(json_object_get(u, "ok"))) {
        const char *e = str_of(u, "error");
        job_fail(j, xstrdup(e ? e : "not analysed"));
        continue;
      }
      size_t q;
      json_t *fo;
      json_array_foreach(fs, q, fo) {
        finding_t *f = finding_load(fo);
        if (!f) {
          err_msg("'%s': a finding of '%s' is malformed", paths[p], display);
          json_decref(root);
          goto out;
        }
        fv_push(&j->findings, f);
      }
      j->state = JOB_OK;
    }
    json_decref(root);
  }
  for (unsigned k = 0; k < total; k++)
    if (!seen[k]) {
      err_msg("shard %u/%u is missing: give all %u shards", k + 1, total, total);
      goto out;
    }
  /* The summaries and counters back into files, named as a single run names
   * them (by rank), for the counters round and the join. */
  canonical_order(jobs);
  rc = 0;
  for (size_t i = 0; i < jobs->n && rc == 0; i++) {
    job_t *j = jobs->v[i];
    if (j->saved_summary) {
      j->summary_path = xasprintf("%s/%zu.mp.json", tmpdir, j->rank);
      if (write_file(j->summary_path, j->saved_summary) != 0) {
        err_msg("cannot write '%s': %s", j->summary_path, strerror(errno));
        rc = -1;
      }
    }
    if (j->saved_counters) {
      j->counters_path = xasprintf("%s/%zu.counters", tmpdir, j->rank);
      if (write_file(j->counters_path, j->saved_counters) != 0) {
        err_msg("cannot write '%s': %s", j->counters_path, strerror(errno));
        rc = -1;
      }
    }
  }
out:
  free(seen);
  co->checks = checks; /* owned by the caller from now on */
  co->config = config;
  free(cwd);
  return rc;
}
