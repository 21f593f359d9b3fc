/* seqlint runner: text (clang style), JSON and SARIF 2.1.0 output. */
#include "output.h"

#include "checks.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#ifndef SEQLINT_VERSION
#define SEQLINT_VERSION "0.0.0"
#endif

#ifndef SEQLINT_HELP_URI_BASE
#define SEQLINT_HELP_URI_BASE "https://github.com/seqlint/seqlint/blob/main/docs/checks/"
#endif

static const char k_info_uri[] = "https://github.com/seqlint/seqlint";
static const char *g_help_uri_base = SEQLINT_HELP_URI_BASE;
static const char *g_source_root; /* absolute, canonical; NULL: the cwd */

void set_sarif_options(const char *source_root, const char *help_uri_base) {
  g_source_root = source_root;
  if (help_uri_base)
    g_help_uri_base = help_uri_base;
}

/* ---- text ------------------------------------------------------------------ */

static int text_loc(FILE *out, const loc_t *l) {
  if (!l->file[0])
    return 0;
  if (!l->line)
    return fprintf(out, "%s: ", l->file);
  return fprintf(out, "%s:%u:%u: ", l->file, l->line, l->col);
}

/* The source line with a caret under the column (and '~' to the range end),
 * and the replacement text of a fix-it on that line, as clang prints them. */
static int text_snippet(FILE *out, const loc_t *l, unsigned end_col, const char *insert,
                        unsigned insert_col) {
  size_t len;
  const char *text = source_line(l->abs, l->line, &len);
  if (!text || !l->col || l->col > len + 1)
    return 0;
  if (fprintf(out, "%5u | %.*s\n      | ", l->line, (int)len, text) < 0)
    return -1;
  for (size_t i = 0; i + 1 < l->col; i++)
    if (fputc(text[i] == '\t' ? '\t' : ' ', out) == EOF)
      return -1;
  if (fputc('^', out) == EOF)
    return -1;
  for (unsigned c = l->col + 1; c < end_col && c <= len; c++)
    if (fputc('~', out) == EOF)
      return -1;
  if (fputc('\n', out) == EOF)
    return -1;
  if (insert && insert_col && insert_col <= len + 1 && !strchr(insert, '\n')) {
    if (fputs("      | ", out) == EOF)
      return -1;
    for (size_t i = 0; i + 1 < insert_col; i++)
      if (fputc(text[i] == '\t' ? '\t' : ' ', out) == EOF)
        return -1;
    if (fprintf(out, "%s\n", insert) < 0)
      return -1;
  }
  return 0;
}

int write_text(FILE *out, const findvec *fv) {
  for (size_t i = 0; i < fv->n; i++) {
    const finding_t *f = fv->v[i];
    if (text_loc(out, &f->loc) < 0 ||
        fprintf(out, "%s: %s [seqlint-%s]\n", f->is_error ? "error" : "warning", f->message,
                f->check) < 0)
      return -1;
    const char *insert = NULL;
    unsigned insert_col = 0;
    for (size_t k = 0; k < f->n_fixits && !insert; k++) {
      const fixit_t *x = &f->fixits[k];
      if (x->begin.line == f->loc.line && strcmp(x->begin.abs, f->loc.abs) == 0 &&
          x->replacement[0]) {
        insert = x->replacement;
        insert_col = x->begin.col;
      }
    }
    unsigned end_col = f->end_line == f->loc.line ? f->end_col : 0;
    if (text_snippet(out, &f->loc, end_col, insert, insert_col) < 0)
      return -1;
    for (size_t k = 0; k < f->n_notes; k++) {
      const note_t *n = &f->notes[k];
      if (text_loc(out, &n->loc) < 0 || fprintf(out, "note: %s\n", n->message) < 0 ||
          text_snippet(out, &n->loc, 0, NULL, 0) < 0)
        return -1;
    }
  }
  return 0;
}

/* ---- JSON -------------------------------------------------------------------- */

static void set_loc_fields(json_t *o, const loc_t *l) {
  json_object_set_new(o, "file", json_str(l->file));
  json_object_set_new(o, "line", json_integer(l->line));
  json_object_set_new(o, "column", json_integer(l->col));
}

static int dump(FILE *out, json_t *root) {
  int rc = json_dumpf(root, out, JSON_INDENT(2)) == 0 && fputc('\n', out) != EOF ? 0 : -1;
  json_decref(root);
  return rc;
}

/* One finding as the JSON output writes it (and a shard saves it). */
json_t *finding_json(const finding_t *f) {
  json_t *o = json_object();
  json_object_set_new(o, "check", json_str(f->check));
  set_loc_fields(o, &f->loc);
  json_object_set_new(o, "message", json_str(f->message));
  json_object_set_new(o, "level", json_string(f->is_error ? "error" : "warning"));
  json_t *notes = json_array();
  for (size_t k = 0; k < f->n_notes; k++) {
    json_t *n = json_object();
    set_loc_fields(n, &f->notes[k].loc);
    json_object_set_new(n, "message", json_str(f->notes[k].message));
    json_array_append_new(notes, n);
  }
  json_object_set_new(o, "notes", notes);
  if (f->configurations)
    json_object_set(o, "configurations", f->configurations);
  json_t *fixits = json_array();
  for (size_t k = 0; k < f->n_fixits; k++) {
    const fixit_t *x = &f->fixits[k];
    json_t *n = json_object();
    set_loc_fields(n, &x->begin);
    json_object_set_new(n, "end_line", json_integer(x->end_line));
    json_object_set_new(n, "end_column", json_integer(x->end_col));
    json_object_set_new(n, "replacement", json_str(x->replacement));
    json_array_append_new(fixits, n);
  }
  json_object_set_new(o, "fixits", fixits);
  if (f->fingerprint) /* set by findings_finalize() */
    json_object_set_new(o, "fingerprint", json_str(f->fingerprint));
  return o;
}

int write_json(FILE *out, const findvec *fv, const run_coverage *cov) {
  json_t *arr = json_array();
  for (size_t i = 0; i < fv->n; i++)
    json_array_append_new(arr, finding_json(fv->v[i]));
  json_t *root = json_object();
  json_object_set_new(root, "findings", arr);
  json_object_set_new(root, "coverage", coverage_json(cov));
  return dump(out, root);
}

/* ---- GitLab Code Quality ------------------------------------------------------ */

int write_gitlab(FILE *out, const findvec *fv) {
  json_t *arr = json_array();
  for (size_t i = 0; i < fv->n; i++) {
    const finding_t *f = fv->v[i];
    json_t *o = json_object();
    json_object_set_new(o, "type", json_string("issue"));
    char *check = xasprintf("seqlint-%s", f->check);
    json_object_set_new(o, "check_name", json_str(check));
    free(check);
    json_object_set_new(o, "description", json_str(f->message));
    json_t *cats = json_array();
    json_array_append_new(cats, json_string("Bug Risk"));
    json_object_set_new(o, "categories", cats);
    /* findings are warnings; -Werror-style errors are critical */
    json_object_set_new(o, "severity", json_string(f->is_error ? "critical" : "major"));
    /* unique per finding (the :N occurrence suffix is part of it) */
    json_object_set_new(o, "fingerprint", json_str(f->fingerprint));
    json_t *loc = json_object(), *lines = json_object();
    json_object_set_new(loc, "path", json_str(f->loc.file));
    json_object_set_new(lines, "begin", json_integer(f->loc.line ? f->loc.line : 1));
    json_object_set_new(loc, "lines", lines);
    json_object_set_new(o, "location", loc);
    json_array_append_new(arr, o);
  }
  return dump(out, arr);
}

/* ---- SARIF 2.1.0 ------------------------------------------------------------ */

/* Percent-encodes a path for a URI (RFC 3986 unreserved characters and '/'
 * are kept). */
static char *uri_encode(const char *path) {
  static const char hex[] = "0123456789ABCDEF";
  char *out = xmalloc(strlen(path) * 3 + 1);
  size_t o = 0;
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
        strchr("-._~/", *p)) {
      out[o++] = (char)*p;
    } else {
      out[o++] = '%';
      out[o++] = hex[*p >> 4];
      out[o++] = hex[*p & 15];
    }
  }
  out[o] = '\0';
  return out;
}

/* artifactLocation: relative to %SRCROOT% (--source-root, else the current
 * directory) when the file is inside it, else an absolute file:// URI. NULL
 * for "<built-in>". `file` is as displayed: relative to the current
 * directory, or absolute. */
static json_t *artifact_location(const char *file) {
  if (!file[0] || file[0] == '<')
    return NULL;
  json_t *o = json_object();
  char *abs = NULL;
  const char *rel = NULL, *path = file;
  if (g_source_root) {
    abs = path_canonical(NULL, file);
    size_t n = strlen(g_source_root);
    if (strncmp(abs, g_source_root, n) == 0 && (abs[n] == '/' || n == 1))
      rel = abs + (n == 1 ? 1 : n + 1);
    path = abs;
  } else if (file[0] != '/') {
    rel = file;
  }
  char *enc = uri_encode(rel ? rel : path);
  if (!rel) {
    char *uri = xasprintf("file://%s", enc);
    json_object_set_new(o, "uri", json_str(uri));
    free(uri);
  } else {
    json_object_set_new(o, "uri", json_str(enc));
    json_object_set_new(o, "uriBaseId", json_string("SRCROOT"));
  }
  free(enc);
  free(abs);
  return o;
}

static const char *check_doc_of(const char *name) {
  for (size_t i = 0; i < g_num_check_docs; i++)
    if (strcmp(g_check_docs[i].name, name) == 0)
      return g_check_docs[i].markdown;
  return NULL;
}

/* The markdown of a check's document for a SARIF viewer, which has no
 * repository around it: relative links ("mp-missing-barrier.md",
 * "../integration.md#x") are made absolute against the help URI base. */
static char *help_markdown(const char *md) {
  size_t cap = strlen(md) * 2 + 64, o = 0;
  char *out = xmalloc(cap);
  size_t base_len = strlen(g_help_uri_base);
  for (const char *p = md; *p;) {
    if (p[0] == ']' && p[1] == '(') {
      const char *t = p + 2;
      int absolute = strncmp(t, "http://", 7) == 0 || strncmp(t, "https://", 8) == 0 ||
                     strncmp(t, "mailto:", 7) == 0 || t[0] == '#' || t[0] == '/';
      if (o + base_len + 3 >= cap)
        out = xrealloc(out, cap = cap * 2 + base_len);
      out[o++] = ']';
      out[o++] = '(';
      if (!absolute) {
        memcpy(out + o, g_help_uri_base, base_len);
        o += base_len;
      }
      p = t;
      continue;
    }
    if (o + 2 >= cap)
      out = xrealloc(out, cap *= 2);
    out[o++] = *p++;
  }
  out[o] = '\0';
  return out;
}

/* Plain text of the markdown: emphasis and code marks dropped, a link shown
 * as its text followed by its target in parentheses. */
static char *help_text(const char *md) {
  size_t cap = strlen(md) + 1, o = 0;
  char *out = xmalloc(cap);
  for (const char *p = md; *p;) {
    if (p[0] == '*' && p[1] == '*') {
      p += 2;
      continue;
    }
    if (p[0] == '`') {
      p++;
      continue;
    }
    if (p[0] == '[') { /* [text](target) → text (target) */
      const char *close = strchr(p, ']');
      const char *nl = strchr(p, '\n');
      if (close && close[1] == '(' && (!nl || close < nl)) {
        const char *end = strchr(close, ')');
        if (end) {
          size_t tlen = (size_t)(close - p - 1), ulen = (size_t)(end - close - 2);
          if (o + tlen + ulen + 4 >= cap)
            out = xrealloc(out, cap = cap * 2 + tlen + ulen + 4);
          for (size_t i = 0; i < tlen; i++)
            if (p[1 + i] != '`')
              out[o++] = p[1 + i];
          out[o++] = ' ';
          out[o++] = '(';
          memcpy(out + o, close + 2, ulen);
          o += ulen;
          out[o++] = ')';
          p = end + 1;
          continue;
        }
      }
    }
    if (o + 2 >= cap)
      out = xrealloc(out, cap *= 2);
    out[o++] = *p++;
  }
  out[o] = '\0';
  return out;
}

static json_t *region(unsigned line, unsigned col, unsigned end_line, unsigned end_col) {
  json_t *r = json_object();
  json_object_set_new(r, "startLine", json_integer(line));
  if (col)
    json_object_set_new(r, "startColumn", json_integer(col));
  if (end_line) {
    json_object_set_new(r, "endLine", json_integer(end_line));
    if (end_col)
      json_object_set_new(r, "endColumn", json_integer(end_col));
  }
  return r;
}

static json_t *physical_location(const loc_t *l, unsigned end_line, unsigned end_col) {
  json_t *art = artifact_location(l->file);
  if (!art)
    return NULL;
  json_t *p = json_object();
  json_object_set_new(p, "artifactLocation", art);
  if (l->line)
    json_object_set_new(p, "region", region(l->line, l->col, end_line, end_col));
  return p;
}

static json_t *message(const char *text) {
  json_t *m = json_object();
  json_object_set_new(m, "text", json_str(text));
  return m;
}

static json_t *make_rule(const char *name, const char *short_desc, const char *full_desc) {
  json_t *r = json_object();
  char *id = xasprintf("seqlint-%s", name);
  char *camel = check_camel_case(name);
  char *help = xasprintf("%s%s.md", g_help_uri_base, name);
  json_object_set_new(r, "id", json_str(id));
  json_object_set_new(r, "name", json_str(camel));
  json_object_set_new(r, "shortDescription", message(short_desc));
  json_object_set_new(r, "fullDescription", message(full_desc));
  json_object_set_new(r, "helpUri", json_str(help));
  /* help: the check's document (GitHub code scanning shows the markdown). */
  const char *doc = check_doc_of(name);
  json_t *h = json_object();
  if (doc) {
    char *md = help_markdown(doc), *text = help_text(doc);
    json_object_set_new(h, "text", json_str(text));
    json_object_set_new(h, "markdown", json_str(md));
    free(md);
    free(text);
  } else { /* a check newer than this runner: its description and link */
    char *text = xasprintf("%s See %s.", full_desc, help);
    json_object_set_new(h, "text", json_str(text));
    free(text);
  }
  json_object_set_new(r, "help", h);
  json_t *cfg = json_object();
  json_object_set_new(cfg, "level", json_string("warning"));
  json_object_set_new(r, "defaultConfiguration", cfg);
  free(id);
  free(camel);
  free(help);
  return r;
}

/* "Insert 'smp_wmb();'": the replacement with its whitespace runs (the
 * newline and indentation a fix-it carries) collapsed and trimmed. */
char *fixit_description(const fixit_t *x) {
  char *text = xmalloc(strlen(x->replacement) + 1);
  size_t o = 0;
  for (const char *p = x->replacement; *p; p++) {
    if (isspace((unsigned char)*p)) {
      if (o && text[o - 1] != ' ')
        text[o++] = ' ';
      continue;
    }
    text[o++] = *p;
  }
  while (o && text[o - 1] == ' ')
    o--;
  text[o] = '\0';
  int empty_range = x->begin.line == x->end_line && x->begin.col == x->end_col;
  char *desc = empty_range ? xasprintf("Insert '%s'", text)
               : !text[0]  ? xstrdup("Remove the code")
                           : xasprintf("Replace with '%s'", text);
  free(text);
  return desc;
}

static json_t *sarif_fixes(const finding_t *f) {
  json_t *changes = json_array();
  strmap by_file = {0}; /* file → its artifactChange (borrowed) */
  for (size_t k = 0; k < f->n_fixits; k++) {
    const fixit_t *x = &f->fixits[k];
    int created;
    void **slot = sm_slot(&by_file, x->begin.file, &created);
    if (created) {
      json_t *art = artifact_location(x->begin.file);
      if (!art) {
        *slot = NULL;
        continue;
      }
      json_t *change = json_object();
      json_object_set_new(change, "artifactLocation", art);
      json_object_set_new(change, "replacements", json_array());
      json_array_append_new(changes, change);
      *slot = change;
    }
    if (!*slot)
      continue;
    json_t *rep = json_object();
    json_object_set_new(rep, "deletedRegion",
                        region(x->begin.line, x->begin.col, x->end_line, x->end_col));
    json_t *ins = json_object();
    json_object_set_new(ins, "text", json_str(x->replacement));
    json_object_set_new(rep, "insertedContent", ins);
    json_array_append_new(json_object_get((json_t *)*slot, "replacements"), rep);
  }
  sm_free(&by_file, NULL);
  if (json_array_size(changes) == 0) {
    json_decref(changes);
    return NULL;
  }
  json_t *fix = json_object();
  char *desc = fixit_description(&f->fixits[0]);
  json_object_set_new(fix, "description", message(desc));
  free(desc);
  json_object_set_new(fix, "artifactChanges", changes);
  json_t *fixes = json_array();
  json_array_append_new(fixes, fix);
  return fixes;
}

int write_sarif(FILE *out, const findvec *fv, const jobvec *jv, const run_coverage *cov) {
  json_t *rules = json_array();
  strmap rule_index = {0}; /* check → index + 1 */
  for (size_t i = 0; i < g_num_checks; i++) {
    json_array_append_new(rules, make_rule(g_checks[i].name, g_checks[i].short_desc,
                                           g_checks[i].full_desc));
    *sm_slot(&rule_index, g_checks[i].name, NULL) = (void *)(i + 1);
  }

  json_t *results = json_array();
  for (size_t i = 0; i < fv->n; i++) {
    const finding_t *f = fv->v[i];
    int created;
    void **slot = sm_slot(&rule_index, f->check, &created);
    if (created) { /* a check newer than this table */
      char *desc = xasprintf("seqlint check %s.", f->check);
      json_array_append_new(rules, make_rule(f->check, desc, desc));
      free(desc);
      *slot = (void *)json_array_size(rules);
    }
    size_t idx = (size_t)*slot - 1;

    json_t *r = json_object();
    char *rule_id = xasprintf("seqlint-%s", f->check);
    json_object_set_new(r, "ruleId", json_str(rule_id));
    free(rule_id);
    json_object_set_new(r, "ruleIndex", json_integer((json_int_t)idx));
    json_object_set_new(r, "level", json_string(f->is_error ? "error" : "warning"));
    json_object_set_new(r, "message", message(f->message));
    json_t *pl = physical_location(&f->loc, f->end_line, f->end_col);
    if (pl) {
      json_t *l = json_object();
      json_object_set_new(l, "physicalLocation", pl);
      json_t *locs = json_array();
      json_array_append_new(locs, l);
      json_object_set_new(r, "locations", locs);
    }
    json_t *related = json_array();
    for (size_t k = 0; k < f->n_notes; k++) {
      json_t *npl = physical_location(&f->notes[k].loc, 0, 0);
      if (!npl)
        continue;
      json_t *l = json_object();
      json_object_set_new(l, "id", json_integer((json_int_t)json_array_size(related) + 1));
      json_object_set_new(l, "physicalLocation", npl);
      json_object_set_new(l, "message", message(f->notes[k].message));
      json_array_append_new(related, l);
    }
    if (json_array_size(related))
      json_object_set_new(r, "relatedLocations", related);
    else
      json_decref(related);
    json_t *fixes = sarif_fixes(f);
    if (fixes)
      json_object_set_new(r, "fixes", fixes);
    json_t *fps = json_object();
    json_object_set_new(fps, "seqlintFingerprint/v1", json_str(f->fingerprint));
    json_object_set_new(r, "partialFingerprints", fps);
    if (f->configurations)
      json_object_set_new(r, "properties",
                          json_pack("{s:O}", "seqlint/configurations", f->configurations));
    json_array_append_new(results, r);
  }
  sm_free(&rule_index, NULL);

  /* Files that could not be analysed: tool execution notifications. */
  json_t *notes = json_array();
  for (size_t i = 0; jv && i < jv->n; i++) {
    const job_t *j = jv->v[i];
    if (j->state != JOB_FAILED)
      continue;
    json_t *n = json_object();
    json_object_set_new(n, "level", json_string("error"));
    char *text = xasprintf("%s not analysed: %s", j->display, j->error);
    json_object_set_new(n, "message", message(text));
    free(text);
    json_t *art = artifact_location(j->display);
    if (art) {
      json_t *p = json_object();
      json_object_set_new(p, "artifactLocation", art);
      json_t *l = json_object();
      json_object_set_new(l, "physicalLocation", p);
      json_t *locs = json_array();
      json_array_append_new(locs, l);
      json_object_set_new(n, "locations", locs);
    }
    json_array_append_new(notes, n);
  }
  json_t *inv = json_object();
  json_object_set_new(inv, "executionSuccessful", json_boolean(json_array_size(notes) == 0));
  json_object_set_new(inv, "toolExecutionNotifications", notes);
  json_t *invocations = json_array();
  json_array_append_new(invocations, inv);

  json_t *driver = json_object();
  json_object_set_new(driver, "name", json_string("seqlint"));
  json_object_set_new(driver, "version", json_string(SEQLINT_VERSION));
  json_object_set_new(driver, "semanticVersion", json_string(SEQLINT_VERSION));
  json_object_set_new(driver, "informationUri", json_string(k_info_uri));
  json_object_set_new(driver, "rules", rules);
  json_t *tool = json_object();
  json_object_set_new(tool, "driver", driver);

  json_t *srcroot = json_object();
  char *enc = uri_encode(g_source_root ? g_source_root : cwd_path());
  char *root_uri = xasprintf("file://%s%s", enc, ends_with(enc, "/") ? "" : "/");
  json_object_set_new(srcroot, "uri", json_str(root_uri));
  free(enc);
  free(root_uri);
  json_t *bases = json_object();
  json_object_set_new(bases, "SRCROOT", srcroot);

  json_t *run = json_object();
  json_object_set_new(run, "tool", tool);
  json_object_set_new(run, "originalUriBaseIds", bases);
  json_object_set_new(run, "invocations", invocations);
  json_object_set_new(run, "results", results);
  /* What was checked (a property bag, SARIF 2.1.0 §3.8): no results over
   * code seqlint recognised nothing in is not a clean run. */
  json_t *props = json_object();
  json_object_set_new(props, "coverage", coverage_json(cov));
  json_object_set_new(run, "properties", props);
  json_t *runs = json_array();
  json_array_append_new(runs, run);

  json_t *root = json_object();
  json_object_set_new(root, "$schema", json_string("https://json.schemastore.org/sarif-2.1.0.json"));
  json_object_set_new(root, "version", json_string("2.1.0"));
  json_object_set_new(root, "runs", runs);
  return dump(out, root);
}
