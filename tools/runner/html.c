/* seqlint runner: the HTML report (--format=html -o DIR).
 *
 * A static directory that works from file:// with no server and no network:
 *
 *   DIR/index.html            the findings, with filters by check, file and
 *                             severity (assets/report.js; without JavaScript
 *                             every finding is listed)
 *   DIR/findings/<fp>.html    one page per finding, named by its fingerprint:
 *                             the source around the finding and each note,
 *                             the notes as numbered steps, the fix-its, and
 *                             for a pair finding the writer and the reader
 *                             side by side
 *   DIR/assets/               report.css, report.js, and highlight.js with
 *                             its style when Debian's libjs-highlight.js is
 *                             installed (copied: nothing is fetched)
 *   DIR/.seqlint-report       marks the directory as a report that a later
 *                             run may overwrite
 *
 * Everything taken from sources, paths and messages is HTML-escaped. The
 * output depends only on the findings (no time stamps), so it does not
 * depend on -j or on the order of compile_commands.json. */
#include "html.h"

#include "checks.h"
#include "output.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef SEQLINT_VERSION
#define SEQLINT_VERSION "0.0.0"
#endif

#define MARKER ".seqlint-report"
#define HLJS_DEFAULT_DIR "/usr/share/javascript/highlight.js"
#define CONTEXT_LINES 4

/* Where Debian's libjs-highlight.js is; $SEQLINT_HIGHLIGHT_JS_DIR overrides
 * it (an empty or missing directory: no highlighting). */
static const char *hljs_dir(void) {
  const char *env = getenv("SEQLINT_HIGHLIGHT_JS_DIR");
  return env ? env : HLJS_DEFAULT_DIR;
}

/* ---- the directory ----------------------------------------------------- */

static int is_empty_dir(const char *path) {
  DIR *d = opendir(path);
  if (!d)
    return 0;
  struct dirent *e;
  int empty = 1;
  while (empty && (e = readdir(d)))
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
      empty = 0;
  closedir(d);
  return empty;
}

int html_check_dir(const char *dir) {
  struct stat st;
  if (stat(dir, &st) == 0) {
    if (!S_ISDIR(st.st_mode)) {
      err_msg("--format=html writes a directory, but '%s' exists and is not a directory", dir);
      return -1;
    }
    if (access(dir, W_OK | X_OK) != 0) {
      err_msg("cannot write the report directory '%s': %s", dir, strerror(errno));
      return -1;
    }
    char *marker = path_join(dir, MARKER);
    int ours = access(marker, F_OK) == 0;
    free(marker);
    if (!ours && !is_empty_dir(dir)) {
      err_msg("the report directory '%s' is not empty and holds no seqlint report; give a new "
              "or an empty directory",
              dir);
      return -1;
    }
    return 0;
  }
  if (errno != ENOENT) {
    err_msg("cannot use the report directory '%s': %s", dir, strerror(errno));
    return -1;
  }
  /* To be created at the end: tried now (and removed again), so that a
   * directory that cannot be created fails the run before any analysis. */
  if (mkdir(dir, 0777) != 0) {
    err_msg("cannot create the report directory '%s': %s", dir, strerror(errno));
    return -1;
  }
  rmdir(dir);
  return 0;
}

static int make_dir(const char *path) {
  if (mkdir(path, 0777) == 0 || errno == EEXIST) {
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
      return 0;
    errno = ENOTDIR;
  }
  err_msg("cannot create the report directory '%s': %s", path, strerror(errno));
  return -1;
}

/* ---- escaping ------------------------------------------------------------ */

static void esc_n(FILE *o, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    switch (c) {
    case '&': fputs("&amp;", o); break;
    case '<': fputs("&lt;", o); break;
    case '>': fputs("&gt;", o); break;
    case '"': fputs("&quot;", o); break;
    case '\'': fputs("&#39;", o); break;
    case '\r': break;
    default:
      /* Control characters other than tab and newline are not valid in HTML. */
      if (c < 0x20 && c != '\t' && c != '\n')
        fputs("\xEF\xBF\xBD", o);
      else
        fputc(c, o);
    }
  }
}

static void esc(FILE *o, const char *s) {
  esc_n(o, s ? s : "", s ? strlen(s) : 0);
}

/* ---- page frame ------------------------------------------------------------ */

static int g_have_hljs; /* highlight.js was copied into the report */

static void page_head(FILE *o, const char *title, const char *root, const char *body_class) {
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n", o);
  fputs("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n", o);
  /* Nothing from the network, and no inline script or style. */
  fputs("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "script-src 'self'; style-src 'self'; img-src 'self'\">\n",
        o);
  fputs("<meta name=\"generator\" content=\"seqlint " SEQLINT_VERSION "\">\n<title>", o);
  esc(o, title);
  fputs("</title>\n", o);
  if (g_have_hljs)
    fprintf(o, "<link rel=\"stylesheet\" href=\"%sassets/highlight.css\">\n", root);
  fprintf(o, "<link rel=\"stylesheet\" href=\"%sassets/report.css\">\n", root);
  fprintf(o, "</head>\n<body class=\"%s\">\n", body_class);
}

static void page_foot(FILE *o, const char *root) {
  fputs("<footer>Written by seqlint " SEQLINT_VERSION ". A static report: it loads nothing "
        "from the network.",
        o);
  if (!g_have_hljs)
    fputs(" <span class=\"no-hljs\">Syntax highlighting is off: highlight.js was not found "
          "when the report was written (install Debian's libjs-highlight.js).</span>",
          o);
  fputs("</footer>\n", o);
  if (g_have_hljs)
    fprintf(o, "<script src=\"%sassets/highlight.min.js\"></script>\n", root);
  fprintf(o, "<script src=\"%sassets/report.js\"></script>\n</body>\n</html>\n", root);
}

/* findings/<fingerprint with ':' as '-'>.html; unique within the report. */
static char **page_names(const findvec *fv) {
  char **names = xcalloc(fv->n ? fv->n : 1, sizeof *names);
  strmap used = {0};
  for (size_t i = 0; i < fv->n; i++) {
    const char *fp = fv->v[i]->fingerprint ? fv->v[i]->fingerprint : "";
    char *base = xstrdup(fp[0] ? fp : "finding");
    for (char *p = base; *p; p++)
      if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
        *p = '-';
    char *name = xasprintf("%s.html", base);
    for (unsigned k = 2; sm_get(&used, name); k++) {
      free(name);
      name = xasprintf("%s-%u.html", base, k);
    }
    *sm_slot(&used, name, NULL) = (void *)1;
    names[i] = name;
    free(base);
  }
  sm_free(&used, NULL);
  return names;
}

static const char *severity(const finding_t *f) {
  return f->is_error ? "error" : "warning";
}

static void loc_text(FILE *o, const loc_t *l) {
  if (!l->file[0]) {
    fputs("(no location)", o);
    return;
  }
  esc(o, l->file);
  if (l->line)
    fprintf(o, ":%u", l->line);
  if (l->line && l->col)
    fprintf(o, ":%u", l->col);
}

/* ---- source snippets ---------------------------------------------------- */

/* The lines around l, the line of l marked with `mark` ("F", "1", ...) and
 * followed by a caret line like clang's (tabs kept, so that it lines up). */
static void snippet(FILE *o, const loc_t *l, unsigned end_col, const char *mark, int context) {
  size_t len;
  if (!l->line || !source_line(l->abs, l->line, &len)) {
    fputs("<p class=\"nosrc\">The source of this location is not available.</p>\n", o);
    return;
  }
  unsigned first = l->line > (unsigned)context ? l->line - (unsigned)context : 1;
  unsigned last = l->line + (unsigned)context;
  fputs("<table class=\"code\"><tbody>\n", o);
  for (unsigned n = first; n <= last; n++) {
    const char *text = source_line(l->abs, n, &len);
    if (!text)
      break;
    int hit = n == l->line;
    fprintf(o, "<tr class=\"codeline%s\"><td class=\"ln\">%u</td><td class=\"mk\">%s</td>"
               "<td class=\"src\"><code>",
            hit ? " hit" : "", n, hit ? mark : "");
    esc_n(o, text, len);
    fputs("</code></td></tr>\n", o);
    if (hit && l->col && l->col <= len + 1) {
      fputs("<tr class=\"caret\"><td></td><td></td><td class=\"src\"><code>", o);
      for (size_t i = 0; i + 1 < l->col; i++)
        fputc(text[i] == '\t' ? '\t' : ' ', o);
      fputc('^', o);
      for (unsigned c = l->col + 1; c < end_col && c <= len; c++)
        fputc('~', o);
      fputs("</code></td></tr>\n", o);
    }
  }
  fputs("</tbody></table>\n", o);
}

/* ---- pair findings: the writer and the reader side by side -------------- */

typedef enum { SIDE_NONE, SIDE_WRITER, SIDE_READER } side_t;

/* Which side of a message-passing pair or of a seqcount protocol a message
 * speaks of, by its wording: the column of a note in "The two sides".
 * note-column rules: begin (test/tools/note-columns.test reads this table
 * and fails when a note wording of checkers/ matches no phrase in it)
 *
 * A phrase of the writer's or the reader's side puts the note in that
 * column; the one that comes first in the message decides ("'d' is read
 * after 'f' ... but its writer ..." is the reader's). A SIDE_NONE phrase
 * marks a wording that speaks of neither side (a helper, an entry point, a
 * condition): the note goes into the finding's column, and only when no
 * side phrase matches. */
static const struct {
  const char *phrase;
  side_t side;
} note_column_rules[] = {
    {"write-side", SIDE_WRITER},     {"read-side", SIDE_READER},
    {"is published", SIDE_WRITER},   {"publishing store", SIDE_WRITER},
    {"is stored", SIDE_WRITER},      {"is written", SIDE_WRITER},
    {"is updated", SIDE_WRITER},     {"store to", SIDE_WRITER},
    {"data store", SIDE_WRITER},     {"data stores", SIDE_WRITER},
    {"write section", SIDE_WRITER},  {"closing increment", SIDE_WRITER},
    {"odd increment", SIDE_WRITER},  {"write_seq", SIDE_WRITER},
    {"is read", SIDE_READER},        {"is loaded", SIDE_READER},
    {"load of", SIDE_READER},        {"data loads", SIDE_READER},
    {"this load", SIDE_READER},      {"read section", SIDE_READER},
    {"recheck", SIDE_READER},        {"read_seq", SIDE_READER},
    {"re-read", SIDE_READER},        {"never validated", SIDE_READER},
    {"write side's", SIDE_WRITER},   {"read side's", SIDE_READER},
    {"the store it must order", SIDE_WRITER},
    {"the load it must order", SIDE_READER},
    {"is refreshed from", SIDE_WRITER}, {"is not ended", SIDE_WRITER},
    /* "the sequence value is stored in 'v' and never validated" is the
     * reader's begin value, not a writer's store. */
    {"sequence value", SIDE_READER}, {"is checked against", SIDE_READER},
    {"is validated here", SIDE_READER}, {"a writer interfered", SIDE_READER},
    {"is tested here", SIDE_READER}, {"reads a slot", SIDE_READER},
    {"loads the wait queue", SIDE_READER},
    {"is woken here", SIDE_WRITER},
    /* Neither side: a helper, an entry point, a lock, a condition, a
     * pairing comment, an access of either kind. */
    {"inside '", SIDE_NONE},         {"runs as", SIDE_NONE},
    {"is associated with", SIDE_NONE}, {"is defined here", SIDE_NONE},
    {"its comment says", SIDE_NONE}, {"the comment names", SIDE_NONE},
    {"is skipped when this condition", SIDE_NONE},
    {"shared with the other side", SIDE_NONE},
    {"is accessed with", SIDE_NONE}, {"access is", SIDE_NONE},
    {"read-modify-write of", SIDE_NONE}, {"after its full barrier", SIDE_NONE},
    {"never compiled together", SIDE_NONE},
};
/* note-column rules: end */

static side_t message_side(const char *msg) {
  const char *best = NULL;
  size_t best_len = 0;
  side_t side = SIDE_NONE;
  for (size_t i = 0; i < sizeof note_column_rules / sizeof *note_column_rules; i++) {
    if (note_column_rules[i].side == SIDE_NONE)
      continue; /* the finding's column: the default */
    const char *p = strstr(msg, note_column_rules[i].phrase);
    size_t len = strlen(note_column_rules[i].phrase);
    if (p && (!best || p < best || (p == best && len > best_len))) {
      best = p;
      best_len = len;
      side = note_column_rules[i].side;
    }
  }
  return side;
}

/* A message that names an ordering primitive: that side holds its order. */
static int names_ordering(const char *msg) {
  static const char *const words[] = {"smp_", "barrier", "acquire", "release", "fence",
                                      "_wmb", "_rmb", "_mb(", "dma_"};
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (strstr(msg, words[i]))
      return 1;
  return 0;
}

static int is_pair_check(const char *check) {
  return strcmp(check, "barrier-unpaired") == 0 || strcmp(check, "mp-missing-barrier") == 0 ||
         starts_with(check, "seqcount-");
}

typedef struct {
  const loc_t *loc;
  const char *message;
  char mark[24];
} row_t;

static int row_cmp(const void *a, const void *b) {
  const row_t *x = a, *y = b;
  int c = strcmp(x->loc->file, y->loc->file);
  if (c)
    return c;
  if (x->loc->line != y->loc->line)
    return x->loc->line < y->loc->line ? -1 : 1;
  if (x->loc->col != y->loc->col)
    return x->loc->col < y->loc->col ? -1 : 1;
  return strcmp(x->mark, y->mark);
}

/* What the protocol expects on a side the finding has no location on. */
static const char *schematic(side_t side) {
  return side == SIDE_WRITER
             ? "The writer makes the count odd (write_seqcount_begin()), stores the data, "
               "and makes it even again (write_seqcount_end()), with write barriers between."
             : "The reader loads the count (read_seqcount_begin()), loads the data, and "
               "retries while the count was odd or has changed (read_seqcount_retry()), with "
               "read barriers between.";
}

static void pair_column(FILE *o, side_t side, row_t *rows, size_t n, int fails, int holds,
                        int seqcount, int ordering) {
  const char *title = side == SIDE_WRITER ? "Writer" : "Reader";
  const char *cls = fails ? "fails" : holds ? "holds" : n ? "partner" : "expected";
  fprintf(o, "<div class=\"side %s %s\">\n<h3>%s</h3>\n", side == SIDE_WRITER ? "writer" : "reader",
          cls, title);
  if (fails && ordering)
    fputs("<p class=\"verdict\">&#x2717; The order fails on this side: nothing orders its "
          "accesses against each other.</p>\n",
          o);
  else if (fails)
    fputs("<p class=\"verdict\">&#x2717; The protocol breaks on this side.</p>\n", o);
  else if (holds)
    fputs("<p class=\"verdict\">&#x2713; The order holds on this side: it orders its "
          "accesses.</p>\n",
          o);
  else if (n)
    fputs("<p class=\"verdict\">The other side, as the finding names it.</p>\n", o);
  else
    fputs("<p class=\"verdict\">Not part of this finding: what the protocol expects of this "
          "side.</p>\n",
          o);
  if (!n) {
    fprintf(o, "<p class=\"schematic\">%s</p>\n", seqcount ? schematic(side) : "");
    fputs("</div>\n", o);
    return;
  }
  fputs("<ol class=\"rows\">\n", o);
  for (size_t i = 0; i < n; i++) {
    if (i) /* the program order between two accesses of this side */
      fprintf(o, "<li class=\"order %s\" aria-hidden=\"true\">%s</li>\n", cls,
              fails && ordering ? "&#x2193; not ordered"
              : holds           ? "&#x2193; ordered"
                                : "&#x2193;");
    size_t len;
    const char *text = source_line(rows[i].loc->abs, rows[i].loc->line, &len);
    fprintf(o, "<li class=\"row\"><a class=\"step-ref\" href=\"#step-%s\">%s</a> "
               "<span class=\"where\">",
            rows[i].mark, rows[i].mark);
    loc_text(o, rows[i].loc);
    fputs("</span>", o);
    if (text) {
      fputs("<table class=\"code line\"><tbody><tr class=\"codeline\"><td class=\"src\"><code>", o);
      /* The line without its indentation. */
      size_t b = 0;
      while (b < len && (text[b] == ' ' || text[b] == '\t'))
        b++;
      esc_n(o, text + b, len - b);
      fputs("</code></td></tr></tbody></table>", o);
    }
    fputs("<span class=\"what\">", o);
    esc(o, rows[i].message);
    fputs("</span></li>\n", o);
  }
  fputs("</ol>\n</div>\n", o);
}

/* Returns 1 when the finding is drawn as a pair. */
static int pair_diagram(FILE *o, const finding_t *f) {
  if (!is_pair_check(f->check))
    return 0;
  size_t n = f->n_notes + 1;
  row_t *w = xcalloc(n, sizeof *w), *r = xcalloc(n, sizeof *r);
  size_t nw = 0, nr = 0;
  side_t main_side = message_side(f->message);
  int seqcount = starts_with(f->check, "seqcount-");
  if (main_side == SIDE_NONE && seqcount)
    main_side = strstr(f->check, "-write-") ? SIDE_WRITER : SIDE_READER;
  if (main_side == SIDE_NONE) {
    free(w);
    free(r);
    return 0;
  }
  int other_holds = 0;
  for (size_t i = 0; i < n; i++) {
    const loc_t *l = i ? &f->notes[i - 1].loc : &f->loc;
    const char *m = i ? f->notes[i - 1].message : f->message;
    if (!l->file[0] || !l->line)
      continue;
    side_t s = i ? message_side(m) : main_side;
    if (s == SIDE_NONE)
      s = main_side;
    row_t *row = s == SIDE_WRITER ? &w[nw++] : &r[nr++];
    row->loc = l;
    row->message = m;
    if (i)
      snprintf(row->mark, sizeof row->mark, "%zu", i);
    else
      strcpy(row->mark, "F");
    if (s != main_side && names_ordering(m))
      other_holds = 1;
  }
  /* Barriers and message passing need both sides named; a seqcount finding
   * shows the protocol's other side when it names only one. */
  if (!seqcount && (!nw || !nr)) {
    free(w);
    free(r);
    return 0;
  }
  qsort(w, nw, sizeof *w, row_cmp);
  qsort(r, nr, sizeof *r, row_cmp);
  fputs("<section class=\"pair\" id=\"pair\">\n<h2>The two sides</h2>\n<div class=\"sides\">\n",
        o);
  /* Barriers and message passing are about order; so is a seqcount
   * finding about a missing barrier. */
  int ordering = !seqcount || strstr(f->check, "barrier") != NULL;
  pair_column(o, SIDE_WRITER, w, nw, main_side == SIDE_WRITER,
              main_side == SIDE_READER && other_holds, seqcount, ordering);
  fputs("<div class=\"between\" aria-hidden=\"true\"><span class=\"arrow\">publishes "
        "&#x2192;</span><span class=\"arrow back\">&#x2190; observes</span></div>\n",
        o);
  pair_column(o, SIDE_READER, r, nr, main_side == SIDE_READER,
              main_side == SIDE_WRITER && other_holds, seqcount, ordering);
  fputs("</div>\n</section>\n", o);
  free(w);
  free(r);
  return 1;
}

/* ---- pages --------------------------------------------------------------- */

static const char *short_desc(const char *check) {
  int k = check_index(check);
  return k >= 0 ? g_checks[k].short_desc : NULL;
}

static const char *check_doc_markdown(const char *check) {
  for (size_t i = 0; i < g_num_check_docs; i++)
    if (strcmp(g_check_docs[i].name, check) == 0)
      return g_check_docs[i].markdown;
  return NULL;
}

static void finding_page(FILE *o, const findvec *fv, size_t i, char **names) {
  const finding_t *f = fv->v[i];
  char *title = xasprintf("seqlint-%s at %s:%u", f->check, f->loc.file, f->loc.line);
  page_head(o, title, "../", "finding-page");
  free(title);
  fputs("<nav><a href=\"../index.html\">All findings</a>", o);
  if (i > 0)
    fprintf(o, " &middot; <a rel=\"prev\" href=\"%s\">previous</a>", names[i - 1]);
  if (i + 1 < fv->n)
    fprintf(o, " &middot; <a rel=\"next\" href=\"%s\">next</a>", names[i + 1]);
  fprintf(o, " &middot; finding %zu of %zu</nav>\n", i + 1, fv->n);

  fprintf(o, "<header>\n<h1><span class=\"sev %s\">%s</span> <span class=\"check\">seqlint-",
          severity(f), severity(f));
  esc(o, f->check);
  fputs("</span></h1>\n<p class=\"location\" id=\"location\">", o);
  loc_text(o, &f->loc);
  fputs("</p>\n<p class=\"message\" id=\"message\">", o);
  esc(o, f->message);
  fputs("</p>\n", o);
  const char *desc = short_desc(f->check);
  if (desc) {
    fputs("<p class=\"check-desc\">", o);
    esc(o, desc);
    fputs("</p>\n", o);
  }
  fputs("</header>\n", o);

  pair_diagram(o, f);

  fputs("<section class=\"steps\" id=\"steps\">\n<h2>Where</h2>\n", o);
  fputs("<div class=\"step finding-step\" id=\"step-F\"><h3><span class=\"badge\">F</span> "
        "Reported at <span class=\"where\">",
        o);
  loc_text(o, &f->loc);
  fputs("</span></h3>\n", o);
  snippet(o, &f->loc, f->end_line == f->loc.line ? f->end_col : 0, "F", CONTEXT_LINES);
  fputs("</div>\n", o);
  if (f->n_notes) {
    fputs("<h2>Steps</h2>\n<ol class=\"notes\">\n", o);
    for (size_t k = 0; k < f->n_notes; k++) {
      const note_t *nt = &f->notes[k];
      char mark[24];
      snprintf(mark, sizeof mark, "%zu", k + 1);
      fprintf(o, "<li class=\"step\" id=\"step-%zu\"><h3><span class=\"badge\">%zu</span> "
                 "<span class=\"where\">",
              k + 1, k + 1);
      loc_text(o, &nt->loc);
      fputs("</span></h3>\n<p class=\"note\">", o);
      esc(o, nt->message);
      fputs("</p>\n", o);
      snippet(o, &nt->loc, 0, mark, CONTEXT_LINES);
      fputs("</li>\n", o);
    }
    fputs("</ol>\n", o);
  }
  fputs("</section>\n", o);

  if (f->n_fixits) {
    fputs("<section class=\"fixits\" id=\"fixits\">\n<h2>Suggested fix</h2>\n<ul>\n", o);
    for (size_t k = 0; k < f->n_fixits; k++) {
      const fixit_t *x = &f->fixits[k];
      char *d = fixit_description(x);
      fputs("<li><span class=\"where\">", o);
      loc_text(o, &x->begin);
      fputs("</span>: ", o);
      esc(o, d);
      fputs("<pre class=\"replacement\">", o);
      esc(o, x->replacement);
      fputs("</pre></li>\n", o);
      free(d);
    }
    fputs("</ul>\n</section>\n", o);
  }

  const char *doc = check_doc_markdown(f->check);
  if (doc) {
    fputs("<details class=\"doc\"><summary>About seqlint-", o);
    esc(o, f->check);
    fputs("</summary>\n<pre>", o);
    esc(o, doc);
    fputs("</pre></details>\n", o);
  }
  fputs("<p class=\"fingerprint\">Fingerprint <code>", o);
  esc(o, f->fingerprint);
  fputs("</code></p>\n", o);
  page_foot(o, "../");
}

/* The distinct values of one field of the findings, sorted, with counts. */
static int str_cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void filter_select(FILE *o, const findvec *fv, const char *id, const char *label,
                          const char *(*field)(const finding_t *)) {
  strmap counts = {0};
  strvec values = {0};
  for (size_t i = 0; i < fv->n; i++) {
    int created;
    void **slot = sm_slot(&counts, field(fv->v[i]), &created);
    if (created)
      sv_push(&values, field(fv->v[i]));
    *slot = (void *)((size_t)*slot + 1);
  }
  qsort(values.v, values.n, sizeof *values.v, str_cmp);
  fprintf(o, "<label>%s <select id=\"filter-%s\" data-filter=\"%s\">\n<option value=\"\">all "
             "(%zu)</option>\n",
          label, id, id, fv->n);
  for (size_t i = 0; i < values.n; i++) {
    fputs("<option value=\"", o);
    esc(o, values.v[i]);
    fputs("\">", o);
    esc(o, values.v[i]);
    fprintf(o, " (%zu)</option>\n", (size_t)sm_get(&counts, values.v[i]));
  }
  fputs("</select></label>\n", o);
  sv_free(&values);
  sm_free(&counts, NULL);
}

static const char *field_check(const finding_t *f) { return f->check; }
static const char *field_file(const finding_t *f) { return f->loc.file[0] ? f->loc.file : "(none)"; }
static const char *field_severity(const finding_t *f) { return severity(f); }

static void index_page(FILE *o, const findvec *fv, const jobvec *jv, const run_coverage *cov,
                       char **names) {
  page_head(o, "seqlint report", "", "index-page");
  fputs("<header>\n<h1>seqlint report</h1>\n<p class=\"summary\" id=\"summary\">", o);
  size_t files = 0, failed = 0;
  strmap seen = {0};
  for (size_t i = 0; i < fv->n; i++) {
    int created;
    sm_slot(&seen, field_file(fv->v[i]), &created);
    files += created;
  }
  sm_free(&seen, NULL);
  for (size_t i = 0; jv && i < jv->n; i++)
    failed += jv->v[i]->state == JOB_FAILED;
  fprintf(o, "%zu %s in %zu %s", fv->n, fv->n == 1 ? "finding" : "findings", files,
          files == 1 ? "file" : "files");
  if (failed)
    fprintf(o, "; %zu %s not analysed", failed, failed == 1 ? "file" : "files");
  fputs(".</p>\n", o);
  /* What was checked: the summary line's coverage part. */
  char *buf = NULL;
  size_t len = 0;
  FILE *m = cov ? open_memstream(&buf, &len) : NULL;
  if (m) {
    coverage_print_summary(m, cov);
    fclose(m);
    const char *t = buf;
    while (*t == ';' || *t == ' ')
      t++;
    size_t tl = strlen(t);
    while (tl && t[tl - 1] == '\n')
      tl--;
    while (tl) { /* a paragraph a line */
      const char *nl = memchr(t, '\n', tl);
      size_t ll = nl ? (size_t)(nl - t) : tl;
      fputs("<p class=\"coverage\">", o);
      esc_n(o, t, ll);
      fputs("</p>\n", o);
      t += ll;
      tl -= ll;
      if (tl) {
        t++;
        tl--;
      }
    }
    free(buf);
  }
  fputs("</header>\n", o);

  if (!fv->n) {
    fputs("<p class=\"empty\" id=\"no-findings\">No findings.</p>\n", o);
  } else {
    /* Shown by report.js: without JavaScript every finding is listed. */
    fputs("<section class=\"filters\" id=\"filters\" hidden>\n", o);
    filter_select(o, fv, "check", "Check", field_check);
    filter_select(o, fv, "file", "File", field_file);
    filter_select(o, fv, "severity", "Severity", field_severity);
    fprintf(o, "<span class=\"shown\" id=\"shown\">%zu of %zu findings shown</span>\n", fv->n,
            fv->n);
    fputs("</section>\n", o);
    fputs("<table class=\"findings\" id=\"findings\">\n<thead><tr><th>#</th><th>Severity</th>"
          "<th>Check</th><th>Location</th><th>Message</th></tr></thead>\n<tbody>\n",
          o);
    for (size_t i = 0; i < fv->n; i++) {
      const finding_t *f = fv->v[i];
      fputs("<tr class=\"finding\" data-check=\"", o);
      esc(o, f->check);
      fputs("\" data-file=\"", o);
      esc(o, field_file(f));
      fprintf(o, "\" data-severity=\"%s\"><td>%zu</td><td><span class=\"sev %s\">%s</span></td>"
                 "<td class=\"check\">",
              severity(f), i + 1, severity(f), severity(f));
      esc(o, f->check);
      fprintf(o, "</td><td class=\"where\"><a href=\"findings/%s\">", names[i]);
      loc_text(o, &f->loc);
      fprintf(o, "</a></td><td class=\"msg\"><a href=\"findings/%s\">", names[i]);
      esc(o, f->message);
      if (f->n_notes)
        fprintf(o, "</a> <span class=\"nnotes\">%zu %s</span></td></tr>\n", f->n_notes,
                f->n_notes == 1 ? "note" : "notes");
      else
        fputs("</a></td></tr>\n", o);
    }
    fputs("</tbody>\n</table>\n<p class=\"empty\" id=\"none-shown\" hidden>No finding matches "
          "the filters.</p>\n",
          o);
  }

  if (failed) {
    fputs("<section class=\"not-analysed\" id=\"not-analysed\">\n<h2>Not analysed</h2>\n<ul>\n", o);
    for (size_t i = 0; i < jv->n; i++) {
      const job_t *j = jv->v[i];
      if (j->state != JOB_FAILED)
        continue;
      fputs("<li><span class=\"where\">", o);
      esc(o, j->display);
      fputs("</span>: ", o);
      esc(o, j->error);
      fputs("</li>\n", o);
    }
    fputs("</ul>\n</section>\n", o);
  }
  page_foot(o, "");
}

/* ---- assets --------------------------------------------------------------- */

static const char k_css[] =
    ":root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg2:#f6f8fa;--bad:#cf222e;"
    "--bad-bg:#ffebe9;--good:#1a7f37;--good-bg:#dafbe1;--warn:#9a6700;--hit:#fff8c5}\n"
    "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:var(--fg);"
    "margin:0 auto;max-width:1200px;padding:1em 1.5em}\n"
    "h1{font-size:1.4em;margin:.3em 0}h2{font-size:1.15em;margin:1.2em 0 .5em;"
    "border-bottom:1px solid var(--line)}h3{font-size:1em;margin:.4em 0}\n"
    "a{color:#0969da}nav{font-size:.9em;color:var(--muted)}\n"
    "code,pre,.where{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:.9em}\n"
    ".sev{display:inline-block;padding:0 .45em;border-radius:1em;font-size:.8em;"
    "font-weight:600;color:#fff;background:var(--warn)}.sev.error{background:var(--bad)}\n"
    ".check,.location{font-family:ui-monospace,'DejaVu Sans Mono',monospace}"
    ".message{font-size:1.05em}\n"
    ".check-desc,.coverage,.nnotes,.fingerprint,footer{color:var(--muted);font-size:.9em}\n"
    ".filters{display:flex;flex-wrap:wrap;gap:1em;align-items:center;margin:1em 0;"
    "padding:.6em;background:var(--bg2);border:1px solid var(--line);border-radius:6px}\n"
    ".filters select{max-width:28em}\n"
    "table.findings{border-collapse:collapse;width:100%}\n"
    "table.findings th,table.findings td{border-bottom:1px solid var(--line);padding:.35em .5em;"
    "text-align:left;vertical-align:top}\n"
    "table.findings td.where{white-space:nowrap}\n"
    "table.code{border-collapse:collapse;width:100%;background:var(--bg2);"
    "border:1px solid var(--line);border-radius:6px;margin:.3em 0 .8em}\n"
    "table.code td{padding:0 .5em;vertical-align:top}\n"
    "table.code td.src{white-space:pre;tab-size:8;-moz-tab-size:8;width:100%;overflow-x:auto}\n"
    "table.code td.ln{color:var(--muted);text-align:right;user-select:none;width:3em}\n"
    "table.code td.mk{font-weight:700;color:var(--bad);width:1.5em}\n"
    "tr.hit{background:var(--hit)}tr.caret code{color:var(--bad);font-weight:700}\n"
    ".badge{display:inline-block;min-width:1.4em;text-align:center;border-radius:1em;"
    "background:var(--fg);color:#fff;font-size:.8em;margin-right:.3em}\n"
    ".finding-step .badge{background:var(--bad)}\n"
    "ol.notes{padding-left:0;list-style:none}.note{margin:.2em 0}\n"
    ".sides{display:grid;grid-template-columns:1fr auto 1fr;gap:.8em;align-items:start}\n"
    ".side{border:2px solid var(--line);border-radius:8px;padding:.5em .8em;min-width:0}\n"
    ".side.fails{border-color:var(--bad);background:var(--bad-bg)}\n"
    ".side.holds{border-color:var(--good);background:var(--good-bg)}\n"
    ".side.expected{border-style:dashed}\n"
    ".side .verdict{font-weight:600;margin:.2em 0 .5em}.side.fails .verdict{color:var(--bad)}\n"
    ".side.holds .verdict{color:var(--good)}.schematic{font-style:italic}\n"
    "ol.rows{list-style:none;padding:0;margin:0}\n"
    "ol.rows li.row{background:#fff;border:1px solid var(--line);border-radius:6px;"
    "padding:.3em .5em;overflow-x:auto}\n"
    "ol.rows li.row table.code{margin:.2em 0;border:0}\n"
    "ol.rows .what{display:block;font-size:.9em;color:var(--muted)}\n"
    "li.order{text-align:center;font-size:.85em;font-weight:600;margin:.15em 0}\n"
    "li.order.fails{color:var(--bad)}li.order.holds{color:var(--good)}\n"
    ".between{display:flex;flex-direction:column;justify-content:center;gap:1em;"
    "align-self:center;color:var(--muted);font-size:.85em;text-align:center}\n"
    ".step-ref{text-decoration:none;font-weight:700}\n"
    ".doc pre{white-space:pre-wrap;background:var(--bg2);padding:.8em;border-radius:6px}\n"
    "pre.replacement{background:var(--good-bg);padding:.3em .6em;border-radius:4px;"
    "tab-size:8;-moz-tab-size:8}\n"
    "footer{margin-top:2em;border-top:1px solid var(--line);padding-top:.5em}\n"
    "@media (max-width:800px){.sides{grid-template-columns:1fr}}\n";

static const char k_js[] =
    "/* seqlint report: filters on the index, syntax highlighting on the pages. */\n"
    "(function () {\n"
    "  'use strict';\n"
    "  function filters() {\n"
    "    var box = document.getElementById('filters');\n"
    "    if (!box) return;\n"
    "    var selects = box.querySelectorAll('select[data-filter]');\n"
    "    var rows = document.querySelectorAll('#findings tr.finding');\n"
    "    var shown = document.getElementById('shown');\n"
    "    var none = document.getElementById('none-shown');\n"
    "    function apply() {\n"
    "      var n = 0;\n"
    "      for (var i = 0; i < rows.length; i++) {\n"
    "        var show = true;\n"
    "        for (var k = 0; k < selects.length; k++) {\n"
    "          var v = selects[k].value;\n"
    "          if (v && rows[i].getAttribute('data-' + selects[k].getAttribute('data-filter')) !== v)\n"
    "            show = false;\n"
    "        }\n"
    "        rows[i].hidden = !show;\n"
    "        if (show) n++;\n"
    "      }\n"
    "      shown.textContent = n + ' of ' + rows.length + ' findings shown';\n"
    "      none.hidden = n !== 0;\n"
    "    }\n"
    "    /* The filters are in the address too (index.html#check=...&file=...),\n"
    "     * so that a filtered view can be linked to and reloaded. */\n"
    "    function fromHash() {\n"
    "      var q = {};\n"
    "      location.hash.replace(/^#/, '').split('&').forEach(function (kv) {\n"
    "        var i = kv.indexOf('=');\n"
    "        if (i > 0) q[decodeURIComponent(kv.slice(0, i))] = decodeURIComponent(kv.slice(i + 1));\n"
    "      });\n"
    "      for (var k = 0; k < selects.length; k++) {\n"
    "        var v = q[selects[k].getAttribute('data-filter')] || '';\n"
    "        var known = false;\n"
    "        for (var o = 0; o < selects[k].options.length; o++)\n"
    "          if (selects[k].options[o].value === v) known = true;\n"
    "        selects[k].value = known ? v : '';\n"
    "      }\n"
    "    }\n"
    "    function toHash() {\n"
    "      var parts = [];\n"
    "      for (var k = 0; k < selects.length; k++)\n"
    "        if (selects[k].value)\n"
    "          parts.push(selects[k].getAttribute('data-filter') + '=' +\n"
    "                     encodeURIComponent(selects[k].value));\n"
    "      try {\n"
    "        history.replaceState(null, '', parts.length ? '#' + parts.join('&') : location.pathname);\n"
    "      } catch (e) { /* a browser that refuses it for file:// */ }\n"
    "    }\n"
    "    function changed() { toHash(); apply(); }\n"
    "    for (var k = 0; k < selects.length; k++) selects[k].addEventListener('change', changed);\n"
    "    window.addEventListener('hashchange', function () { fromHash(); apply(); });\n"
    "    box.hidden = false;\n"
    "    fromHash();\n"
    "    apply();\n"
    "  }\n"
    "  /* Line by line, carrying the state across lines (a comment that spans\n"
    "   * several), so that the line numbers and the caret lines stay. */\n"
    "  function highlight() {\n"
    "    var hljs = window.hljs;\n"
    "    if (!hljs || !hljs.highlight || !hljs.getLanguage || !hljs.getLanguage('c')) return;\n"
    "    if (hljs.configure) hljs.configure({hideUpgradeWarningAcceptNoSupportOrSecurityUpdates: true});\n"
    "    var tables = document.querySelectorAll('table.code');\n"
    "    for (var t = 0; t < tables.length; t++) {\n"
    "      var lines = tables[t].querySelectorAll('tr.codeline td.src code');\n"
    "      var top;\n"
    "      for (var i = 0; i < lines.length; i++) {\n"
    "        var r = hljs.highlight('c', lines[i].textContent, true, top);\n"
    "        lines[i].innerHTML = r.value;\n"
    "        top = r.top;\n"
    "      }\n"
    "    }\n"
    "    document.body.classList.add('highlighted');\n"
    "  }\n"
    "  filters();\n"
    "  highlight();\n"
    "})();\n";

static int write_text_file(const char *path, const char *text) {
  atomic_out ao;
  FILE *f = ao_open(&ao, path);
  if (!f) {
    err_msg("cannot write '%s': %s", path, strerror(errno));
    return -1;
  }
  int ok = fputs(text, f) != EOF && fflush(f) == 0 && !ferror(f);
  int e = errno;
  if (ao_close(&ao, ok) != 0 || !ok) {
    err_msg("cannot write '%s': %s", path, strerror(ok ? errno : e ? e : EIO));
    return -1;
  }
  return 0;
}

/* Copies a file; 1 when `from` does not exist, 0 done, -1 after an error. */
static int copy_file(const char *from, const char *to) {
  FILE *in = fopen(from, "rb");
  if (!in)
    return 1;
  atomic_out ao;
  FILE *out = ao_open(&ao, to);
  if (!out) {
    err_msg("cannot write '%s': %s", to, strerror(errno));
    fclose(in);
    return -1;
  }
  char buf[65536];
  size_t n;
  int ok = 1;
  while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
    ok = fwrite(buf, 1, n, out) == n;
  int rerr = ferror(in);
  fclose(in);
  ok = ok && !rerr && fflush(out) == 0 && !ferror(out);
  int e = errno;
  if (ao_close(&ao, ok) != 0 || !ok) {
    err_msg("cannot copy '%s' to '%s': %s", from, to, strerror(ok ? errno : e ? e : EIO));
    return -1;
  }
  return 0;
}

/* highlight.js and a light style from libjs-highlight.js, when installed.
 * A report written without it loses an old copy too. */
static int copy_hljs(const char *assets) {
  const char *dir = hljs_dir();
  char *js = path_join(dir, "highlight.min.js");
  char *css = path_join(dir, "styles/github.css");
  char *to_js = path_join(assets, "highlight.min.js");
  char *to_css = path_join(assets, "highlight.css");
  int rc = 0;
  g_have_hljs = 0;
  if (access(js, R_OK) == 0 && access(css, R_OK) == 0) {
    rc = copy_file(js, to_js);
    if (rc == 0)
      rc = copy_file(css, to_css);
    g_have_hljs = rc == 0;
    if (rc > 0)
      rc = 0;
  }
  if (!g_have_hljs) {
    unlink(to_js);
    unlink(to_css);
  }
  free(js);
  free(css);
  free(to_js);
  free(to_css);
  return rc < 0 ? -1 : 0;
}

/* Pages of an earlier report that this one does not have. */
static void remove_stale_pages(const char *dir, char **names, size_t n) {
  DIR *d = opendir(dir);
  if (!d)
    return;
  strmap keep = {0};
  for (size_t i = 0; i < n; i++)
    *sm_slot(&keep, names[i], NULL) = (void *)1;
  strvec stale = {0};
  struct dirent *e;
  while ((e = readdir(d)))
    if (ends_with(e->d_name, ".html") && !sm_get(&keep, e->d_name))
      sv_push(&stale, e->d_name);
  closedir(d);
  for (size_t i = 0; i < stale.n; i++) {
    char *p = path_join(dir, stale.v[i]);
    if (unlink(p) != 0)
      err_msg("cannot remove '%s': %s", p, strerror(errno));
    free(p);
  }
  sv_free(&stale);
  sm_free(&keep, NULL);
}

/* One page into its file (written to a temporary file, renamed at the end). */
typedef struct {
  const findvec *fv;
  const jobvec *jv;
  const run_coverage *cov;
  char **names;
  size_t index; /* the finding, or SIZE_MAX for the index */
} page_args;

static int write_page(const char *path, const page_args *a) {
  atomic_out ao;
  FILE *f = ao_open(&ao, path);
  if (!f) {
    err_msg("cannot write '%s': %s", path, strerror(errno));
    return -1;
  }
  errno = 0;
  if (a->index == (size_t)-1)
    index_page(f, a->fv, a->jv, a->cov, a->names);
  else
    finding_page(f, a->fv, a->index, a->names);
  int ok = fflush(f) == 0 && !ferror(f);
  int e = errno;
  if (ao_close(&ao, ok) != 0 || !ok) {
    err_msg("cannot write '%s': %s", path, strerror(ok ? errno : e ? e : EIO));
    return -1;
  }
  return 0;
}

int write_html(const char *dir, const findvec *fv, const jobvec *jv, const run_coverage *cov) {
  char *assets = path_join(dir, "assets");
  char *pages = path_join(dir, "findings");
  char *marker = path_join(dir, MARKER);
  char **names = page_names(fv);
  int rc = -1;
  if (make_dir(dir) != 0 || make_dir(assets) != 0 || make_dir(pages) != 0)
    goto out;
  if (write_text_file(marker, "A seqlint HTML report: seqlint may overwrite this directory.\n") !=
      0)
    goto out;
  char *css = path_join(assets, "report.css"), *js = path_join(assets, "report.js");
  int a = write_text_file(css, k_css) == 0 && write_text_file(js, k_js) == 0;
  free(css);
  free(js);
  if (!a || copy_hljs(assets) != 0)
    goto out;
  for (size_t i = 0; i < fv->n; i++) {
    char *p = path_join(pages, names[i]);
    page_args pa = {fv, jv, cov, names, i};
    int r = write_page(p, &pa);
    free(p);
    if (r != 0)
      goto out;
  }
  remove_stale_pages(pages, names, fv->n);
  char *index = path_join(dir, "index.html");
  page_args pa = {fv, jv, cov, names, (size_t)-1};
  rc = write_page(index, &pa);
  free(index);
out:
  for (size_t i = 0; i < fv->n; i++)
    free(names[i]);
  free(names);
  free(assets);
  free(pages);
  free(marker);
  return rc;
}
