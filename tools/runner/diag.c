/* seqlint runner: read the serialized diagnostics (.dia) the compiler wrote
 * and turn the "[seqlint-<check>]" ones into findings. */
#include "diag.h"

#include <clang-c/CXDiagnostic.h>
#include <clang-c/CXFile.h>
#include <clang-c/CXSourceLocation.h>
#include <clang-c/CXString.h>
#include <stdlib.h>
#include <string.h>

static char *take_string(CXString s) {
  const char *c = clang_getCString(s);
  char *copy = xstrdup(c ? c : "");
  clang_disposeString(s);
  return copy;
}

/* File, line and column of a location of a loaded diagnostic. */
static void decode_loc(CXSourceLocation sl, const char *dir, loc_t *out) {
  CXFile file = NULL;
  unsigned line = 0, col = 0, offset = 0;
  clang_getFileLocation(sl, &file, &line, &col, &offset);
  char *name = file ? take_string(clang_getFileName(file)) : xstrdup("");
  loc_set(out, dir, name, line, col);
  free(name);
}

/* "... [seqlint-some-check]" → check name and the length of the message
 * before the tag (trailing blanks dropped). */
static int parse_tag(const char *msg, char **check, size_t *msg_len) {
  size_t n = strlen(msg);
  if (n < 11 || msg[n - 1] != ']')
    return 0;
  const char *tag = NULL;
  for (const char *p = strstr(msg, "[seqlint-"); p; p = strstr(p + 1, "[seqlint-"))
    tag = p;
  if (!tag)
    return 0;
  const char *name = tag + strlen("[seqlint-");
  const char *end = msg + n - 1;
  if (name == end)
    return 0;
  for (const char *p = name; p < end; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_'))
      return 0;
  *check = xstrndup(name, (size_t)(end - name));
  size_t len = (size_t)(tag - msg);
  while (len > 0 && (msg[len - 1] == ' ' || msg[len - 1] == '\t'))
    len--;
  *msg_len = len;
  return 1;
}

/* "unknown argument: '-foo'" / "unknown argument '-foo'; did you mean '-bar'?" */
static char *unknown_argument(const char *msg) {
  const char *p;
  if (starts_with(msg, "unknown argument: '"))
    p = msg + strlen("unknown argument: '");
  else if (starts_with(msg, "unknown argument '"))
    p = msg + strlen("unknown argument '");
  else
    return NULL;
  const char *q = strchr(p, '\'');
  return q && q > p ? xstrndup(p, (size_t)(q - p)) : NULL;
}

static char *format_loc_msg(const loc_t *l, const char *level, const char *msg) {
  if (l->file[0] && l->line)
    return xasprintf("%s:%u:%u: %s: %s", l->file, l->line, l->col, level, msg);
  if (l->file[0])
    return xasprintf("%s: %s: %s", l->file, level, msg);
  return xasprintf("%s: %s", level, msg);
}

static finding_t *make_finding(CXDiagnostic d, const char *dir, char *check, const char *msg,
                               size_t msg_len, int is_error) {
  finding_t *f = xcalloc(1, sizeof *f);
  f->check = check;
  f->message = xstrndup(msg, msg_len);
  f->is_error = is_error;
  decode_loc(clang_getDiagnosticLocation(d), dir, &f->loc);

  /* The first range on the finding's line gives the region's end. */
  unsigned nranges = clang_getDiagnosticNumRanges(d);
  for (unsigned i = 0; i < nranges && !f->end_line; i++) {
    CXSourceRange r = clang_getDiagnosticRange(d, i);
    loc_t b = {0}, e = {0};
    decode_loc(clang_getRangeStart(r), dir, &b);
    decode_loc(clang_getRangeEnd(r), dir, &e);
    if (strcmp(b.abs, f->loc.abs) == 0 && strcmp(e.abs, f->loc.abs) == 0 &&
        b.line == f->loc.line && b.col == f->loc.col &&
        (e.line > b.line || (e.line == b.line && e.col > b.col))) {
      f->end_line = e.line;
      f->end_col = e.col;
    }
    loc_free(&b);
    loc_free(&e);
  }

  unsigned nfix = clang_getDiagnosticNumFixIts(d);
  if (nfix) {
    f->fixits = xcalloc(nfix, sizeof *f->fixits);
    for (unsigned i = 0; i < nfix; i++) {
      CXSourceRange r;
      fixit_t *fx = &f->fixits[f->n_fixits];
      fx->replacement = take_string(clang_getDiagnosticFixIt(d, i, &r));
      loc_t e = {0};
      decode_loc(clang_getRangeStart(r), dir, &fx->begin);
      decode_loc(clang_getRangeEnd(r), dir, &e);
      fx->end_line = e.line;
      fx->end_col = e.col;
      int usable = fx->begin.abs[0] && fx->begin.line && strcmp(e.abs, fx->begin.abs) == 0;
      loc_free(&e);
      if (!usable) {
        loc_free(&fx->begin);
        free(fx->replacement);
        continue;
      }
      f->n_fixits++;
    }
  }

  CXDiagnosticSet children = clang_getChildDiagnostics(d);
  unsigned nchildren = children ? clang_getNumDiagnosticsInSet(children) : 0;
  if (nchildren) {
    f->notes = xcalloc(nchildren, sizeof *f->notes);
    for (unsigned i = 0; i < nchildren; i++) {
      CXDiagnostic c = clang_getDiagnosticInSet(children, i);
      if (!c)
        continue;
      /* The include stack is context clang prints above a diagnostic, not a
       * note of the finding (and it differs between translation units). */
      CXString spelling = clang_getDiagnosticSpelling(c);
      const char *sp = clang_getCString(spelling);
      int include_stack = sp && starts_with(sp, "in file included from ");
      clang_disposeString(spelling);
      if (include_stack) {
        clang_disposeDiagnostic(c);
        continue;
      }
      note_t *n = &f->notes[f->n_notes++];
      n->message = take_string(clang_getDiagnosticSpelling(c));
      decode_loc(clang_getDiagnosticLocation(c), dir, &n->loc);
      clang_disposeDiagnostic(c);
    }
  }
  return f;
}

void read_diagnostics(const char *dia_path, const char *dir, findvec *out, diag_summary *s) {
  enum CXLoadDiag_Error lerr = CXLoadDiag_None;
  CXString lmsg = {0};
  CXDiagnosticSet set = clang_loadDiagnostics(dia_path, &lerr, &lmsg);
  if (!set) {
    const char *m = clang_getCString(lmsg);
    s->load_error = xstrdup(m && m[0] ? m : "unreadable serialized diagnostics");
    clang_disposeString(lmsg);
    return;
  }
  clang_disposeString(lmsg);
  s->loaded = 1;

  unsigned n = clang_getNumDiagnosticsInSet(set);
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnosticInSet(set, i);
    if (!d)
      continue;
    enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
    int is_error = sev == CXDiagnostic_Error || sev == CXDiagnostic_Fatal;
    if (sev == CXDiagnostic_Warning || is_error) {
      char *msg = take_string(clang_getDiagnosticSpelling(d));
      char *check = NULL;
      size_t msg_len = 0;
      if (parse_tag(msg, &check, &msg_len)) {
        fv_push(out, make_finding(d, dir, check, msg, msg_len, is_error));
        if (is_error)
          s->n_seqlint_errors++;
      } else if (is_error) {
        s->n_errors++;
        char *arg = unknown_argument(msg);
        if (arg) {
          s->n_unknown_arg_errors++;
          sv_push_own(&s->unknown_args, arg);
        }
        if (!s->first_error) {
          loc_t l = {0};
          decode_loc(clang_getDiagnosticLocation(d), dir, &l);
          s->first_error = format_loc_msg(&l, sev == CXDiagnostic_Fatal ? "fatal error" : "error",
                                          msg);
          loc_free(&l);
        }
      }
      free(msg);
    }
    clang_disposeDiagnostic(d);
  }
  clang_disposeDiagnosticSet(set);
}

void diag_summary_free(diag_summary *s) {
  free(s->load_error);
  free(s->first_error);
  sv_free(&s->unknown_args);
  memset(s, 0, sizeof *s);
}
