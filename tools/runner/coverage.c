/* seqlint runner: what the plugin recognised. Every compile runs with
 * -fplugin-arg-seqlint-stats, which prints one line on the compiler's stderr
 * after the translation unit:
 *
 *   seqlint-stats: functions=N analysed=N write-sections=N(api=N,open=N)
 *     read-sections=N(api=N,open=N) barriers=N(full=N,acq-rel=N,acquire=N,
 *     release=N,write=N,read=N,compiler=N) atomics=N locks=N mp-pairs=N
 *     protocol=yes|no
 *
 * (one line; docs/integration.md, "Coverage"). The runner sums the lines and
 * says how much was checked next to the number of findings: a run over code
 * seqlint recognises nothing in must not look like a clean run. */
#include "coverage.h"

#include "findings.h"

#include <jansson.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const struct {
  const char *key; /* "name" or "name.sub" */
  size_t offset;
} k_fields[] = {
    {"functions", offsetof(coverage_t, functions)},
    {"analysed", offsetof(coverage_t, analysed)},
    {"write-sections.api", offsetof(coverage_t, write_api)},
    {"write-sections.open", offsetof(coverage_t, write_open)},
    {"read-sections.api", offsetof(coverage_t, read_api)},
    {"read-sections.open", offsetof(coverage_t, read_open)},
    {"barriers.full", offsetof(coverage_t, full)},
    {"barriers.acq-rel", offsetof(coverage_t, acq_rel)},
    {"barriers.acquire", offsetof(coverage_t, acquire)},
    {"barriers.release", offsetof(coverage_t, release)},
    {"barriers.write", offsetof(coverage_t, write)},
    {"barriers.read", offsetof(coverage_t, read)},
    {"barriers.compiler", offsetof(coverage_t, compiler)},
    {"atomics", offsetof(coverage_t, atomics)},
    {"locks", offsetof(coverage_t, locks)},
    {"mp-pairs", offsetof(coverage_t, mp_pairs)},
};

/* Adds value to the field named name[0..nlen) (".sub" when sub is set);
 * names this runner does not know (a newer plugin's) are ignored. Totals
 * ("write-sections=N") are recomputed from their parts. */
static void set_field(coverage_t *c, const char *name, size_t nlen, const char *sub, size_t slen,
                      unsigned long long value) {
  char key[64];
  int n = sub ? snprintf(key, sizeof key, "%.*s.%.*s", (int)nlen, name, (int)slen, sub)
              : snprintf(key, sizeof key, "%.*s", (int)nlen, name);
  if (n < 0 || (size_t)n >= sizeof key)
    return;
  for (size_t i = 0; i < sizeof k_fields / sizeof *k_fields; i++)
    if (strcmp(k_fields[i].key, key) == 0) {
      *(unsigned long long *)((char *)c + k_fields[i].offset) += value;
      return;
    }
}

static int is_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'; }

const char *skip_terminal_escapes(const char *line) {
  while (line[0] == '\033' && line[1] == '[') {
    const char *p = line + 2;
    while ((*p >= '0' && *p <= '9') || *p == ';' || *p == '?')
      p++;
    if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')))
      break;
    line = p + 1;
  }
  return line;
}

int coverage_parse_line(const char *line, coverage_t *c) {
  line = skip_terminal_escapes(line);
  if (!starts_with(line, SEQLINT_STATS_PREFIX))
    return 0;
  coverage_t one = {0};
  int protocol = -1;
  const char *p = line + strlen(SEQLINT_STATS_PREFIX);
  for (;;) {
    while (is_space(*p))
      p++;
    if (!*p)
      break;
    const char *name = p;
    while (*p && *p != '=' && !is_space(*p))
      p++;
    size_t nlen = (size_t)(p - name);
    if (*p == '=') {
      p++;
      if (nlen == 8 && strncmp(name, "protocol", 8) == 0) {
        protocol = strncmp(p, "yes", 3) == 0;
      } else {
        char *end;
        unsigned long long v = strtoull(p, &end, 10);
        if (end != p)
          set_field(&one, name, nlen, NULL, 0, v);
        p = end;
        if (*p == '(') { /* name=N(sub=N,sub=N) */
          p++;
          while (*p && *p != ')' && !is_space(*p)) {
            const char *sub = p;
            while (*p && *p != '=' && *p != ',' && *p != ')' && !is_space(*p))
              p++;
            size_t slen = (size_t)(p - sub);
            if (*p == '=') {
              p++;
              v = strtoull(p, &end, 10);
              if (end != p)
                set_field(&one, name, nlen, sub, slen, v);
              p = end;
            }
            while (*p && *p != ',' && *p != ')' && !is_space(*p))
              p++;
            if (*p == ',')
              p++;
          }
        }
      }
    }
    while (*p && !is_space(*p))
      p++;
  }
  if (protocol < 0) /* not said: a section, a pair or a lock */
    protocol = one.write_api + one.write_open + one.read_api + one.read_open + one.mp_pairs +
                   one.locks >
               0;
  one.lines = 1;
  one.protocol = protocol == 1;
  one.no_protocol = protocol == 0 && coverage_barriers(&one) + one.atomics > 0;
  coverage_add(c, &one);
  return 1;
}

void coverage_read_stderr(const char *path, coverage_t *c) {
  FILE *f = fopen(path, "r");
  if (!f)
    return;
  char *line = NULL;
  size_t cap = 0;
  while (getline(&line, &cap, f) > 0)
    coverage_parse_line(line, c);
  free(line);
  fclose(f);
}

void coverage_add(coverage_t *into, const coverage_t *from) {
  for (size_t i = 0; i < sizeof k_fields / sizeof *k_fields; i++)
    *(unsigned long long *)((char *)into + k_fields[i].offset) +=
        *(const unsigned long long *)((const char *)from + k_fields[i].offset);
  into->lines += from->lines;
  into->protocol += from->protocol;
  into->no_protocol += from->no_protocol;
}

unsigned long long coverage_barriers(const coverage_t *c) {
  return c->full + c->acq_rel + c->acquire + c->release + c->write + c->read + c->compiler;
}

/* ---- JSON (--format=json "coverage", SARIF run.properties.coverage) ---------- */

static json_t *jint(unsigned long long n) { return json_integer((json_int_t)n); }

static json_t *sections_json(unsigned long long api, unsigned long long open) {
  json_t *o = json_object();
  json_object_set_new(o, "total", jint(api + open));
  json_object_set_new(o, "api", jint(api));
  json_object_set_new(o, "open_coded", jint(open));
  return o;
}

json_t *coverage_json(const run_coverage *rc) {
  const coverage_t *c = &rc->sum;
  json_t *o = json_object();
  json_object_set_new(o, "translation_units", jint(rc->tus));
  json_object_set_new(o, "translation_units_without_statistics", jint(rc->tus_no_stats));
  json_object_set_new(o, "functions", jint(c->functions));
  json_object_set_new(o, "functions_analysed", jint(c->analysed));
  json_object_set_new(o, "write_sections", sections_json(c->write_api, c->write_open));
  json_object_set_new(o, "read_sections", sections_json(c->read_api, c->read_open));
  json_t *b = json_object();
  json_object_set_new(b, "total", jint(coverage_barriers(c)));
  json_object_set_new(b, "full", jint(c->full));
  json_object_set_new(b, "acq_rel", jint(c->acq_rel));
  json_object_set_new(b, "acquire", jint(c->acquire));
  json_object_set_new(b, "release", jint(c->release));
  json_object_set_new(b, "write", jint(c->write));
  json_object_set_new(b, "read", jint(c->read));
  json_object_set_new(b, "compiler", jint(c->compiler));
  json_object_set_new(o, "barriers", b);
  json_object_set_new(o, "atomics", jint(c->atomics));
  json_object_set_new(o, "locks", jint(c->locks));
  json_object_set_new(o, "mp_pairs", jint(c->mp_pairs));
  json_object_set_new(o, "translation_units_with_protocol", jint(c->protocol));
  json_t *np = json_object();
  json_object_set_new(np, "count", jint(c->no_protocol));
  json_t *files = json_array();
  for (size_t i = 0; i < rc->no_protocol_files.n; i++)
    json_array_append_new(files, json_str(rc->no_protocol_files.v[i]));
  json_object_set_new(np, "files", files);
  json_object_set_new(o, "barriers_or_atomics_without_protocol", np);
  if (rc->db) {
    json_t *d = json_object();
    json_object_set_new(d, "path", json_str(rc->db->path));
    json_object_set_new(d, "entries", jint(rc->db->entries));
    json_object_set_new(d, "analysed", jint(rc->db_analysed));
    json_object_set_new(d, "not_analysed", jint(rc->db_not_analysed));
    json_object_set_new(d, "skipped_duplicates", jint(rc->db->duplicates));
    json_object_set_new(d, "skipped_not_c", jint(rc->db->not_c));
    json_object_set_new(d, "skipped_other_configurations", jint(rc->db->other_configs));
    json_object_set_new(d, "not_selected", jint(rc->db->not_selected));
    json_object_set_new(o, "database", d);
  }
  return o;
}

/* ---- text --------------------------------------------------------------------- */

static const char *pl(unsigned long long n, const char *one, const char *many) {
  return n == 1 ? one : many;
}

void coverage_print_summary(FILE *out, const run_coverage *rc) {
  const coverage_t *c = &rc->sum;
  if (rc->tus && rc->tus_no_stats == rc->tus) {
    fputs("; no coverage statistics (the plugin printed none)", out);
  } else if (rc->tus) {
    unsigned long long w = c->write_api + c->write_open, r = c->read_api + c->read_open;
    unsigned long long b = coverage_barriers(c);
    fprintf(out,
            "; checked %zu %s: %llu %s (%llu analysed), %llu write %s (%llu API, %llu "
            "open-coded), %llu read %s (%llu API, %llu open-coded), %llu %s",
            rc->tus, pl(rc->tus, "TU", "TUs"), c->functions,
            pl(c->functions, "function", "functions"), c->analysed, w,
            pl(w, "section", "sections"), c->write_api, c->write_open, r,
            pl(r, "section", "sections"), c->read_api, c->read_open, b,
            pl(b, "barrier", "barriers"));
    if (b) {
      const struct {
        unsigned long long n;
        const char *name;
      } kinds[] = {{c->full, "full"},       {c->acq_rel, "acq-rel"}, {c->acquire, "acquire"},
                   {c->release, "release"}, {c->write, "write"},     {c->read, "read"},
                   {c->compiler, "compiler"}};
      const char *sep = " (";
      for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (kinds[i].n) {
          fprintf(out, "%s%llu %s", sep, kinds[i].n, kinds[i].name);
          sep = ", ";
        }
      fputc(')', out);
    }
    fprintf(out,
            ", %llu atomic or marked %s, %llu %s, %llu message-passing %s; %zu %s with "
            "barriers or atomics but no protocol recognised",
            c->atomics, pl(c->atomics, "access", "accesses"), c->locks,
            pl(c->locks, "lock", "locks"), c->mp_pairs, pl(c->mp_pairs, "pair", "pairs"),
            c->no_protocol, pl(c->no_protocol, "TU", "TUs"));
    if (rc->tus_no_stats)
      fprintf(out, "; %zu %s printed no statistics", rc->tus_no_stats,
              pl(rc->tus_no_stats, "TU", "TUs"));
  }
  fputc('\n', out);
  if (rc->db) {
    const compdb_stats *d = rc->db;
    fprintf(out, "%s: %zu %s: %zu analysed, %zu not analysed", d->path, d->entries,
            pl(d->entries, "entry", "entries"), rc->db_analysed, rc->db_not_analysed);
    if (d->duplicates)
      fprintf(out, ", %zu skipped as %s of an earlier entry (same directory, file and flags)",
              d->duplicates, pl(d->duplicates, "a duplicate", "duplicates"));
    if (d->other_configs)
      fprintf(out,
              ", %zu skipped as %s (other flags) of a file analysed in one "
              "(--all-configurations analyses each)",
              d->other_configs, pl(d->other_configs, "another configuration", "other configurations"));
    if (d->not_c)
      fprintf(out, ", %zu skipped as not C (assembly)", d->not_c);
    if (d->not_selected)
      fprintf(out, ", %zu not among the files named", d->not_selected);
    fputc('\n', out);
  }
}
