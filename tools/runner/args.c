/* seqlint runner: a compile command rewritten into an analysis command
 * (args.h). */
#include "args.h"

#include <stdlib.h>
#include <string.h>

#ifndef SEQLINT_LLVM_MAJOR
#define SEQLINT_LLVM_MAJOR 19
#endif

/* Options whose next argument belongs to them and must not be interpreted. */
int takes_raw_next(const char *a) {
  static const char *const opts[] = {"-Xclang", "-mllvm", "-Xpreprocessor", "-Xassembler",
                                     "-Xlinker", "-Xanalyzer", "-Xarch_host",
                                     "-Xopenmp-target", "-Xcuda-ptxas", "-Xcuda-fatbinary"};
  for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
    if (strcmp(a, opts[i]) == 0)
      return 1;
  return 0;
}

/* Flags with nothing to do in a syntax-only run (outputs, dependency files,
 * other actions), and -w, which would silence the findings too. Returns how
 * many arguments to drop (0, 1 or 2). */
static int dropped_count(const char *a) {
  static const char *const alone[] = {"-c", "-S", "-E", "-fsyntax-only", "-M", "-MM", "-MD",
                                      "-MMD", "-MP", "-MG", "-MV", "-emit-llvm", "-save-temps",
                                      "-w"};
  static const char *const with_value[] = {"-o", "-MF", "-MT", "-MQ", "--serialize-diagnostics",
                                           "-MJ"};
  for (size_t i = 0; i < sizeof alone / sizeof *alone; i++)
    if (strcmp(a, alone[i]) == 0)
      return 1;
  for (size_t i = 0; i < sizeof with_value / sizeof *with_value; i++)
    if (strcmp(a, with_value[i]) == 0)
      return 2;
  if ((starts_with(a, "-o") && !starts_with(a, "-obj")) || starts_with(a, "-MF") ||
      starts_with(a, "-MT") || starts_with(a, "-MQ") || starts_with(a, "-MJ") ||
      starts_with(a, "--serialize-diagnostics=") || starts_with(a, "-save-temps="))
    return 1;
  return 0;
}

/* "-Wp,-MMD,dir/.file.o.d" (Kbuild) → drop the dependency-file options;
 * returns NULL when nothing is left. */
static char *filter_wp(const char *a) {
  char *copy = xstrdup(a + 4);
  char *out = xmalloc(strlen(a) + 1);
  memcpy(out, "-Wp", 4);
  size_t o = 3;
  int skip_next = 0, kept = 0;
  for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if (skip_next) {
      skip_next = 0;
      continue;
    }
    if (strcmp(tok, "-MD") == 0 || strcmp(tok, "-MMD") == 0 || strcmp(tok, "-MF") == 0 ||
        strcmp(tok, "-MT") == 0 || strcmp(tok, "-MQ") == 0) {
      skip_next = 1;
      continue;
    }
    if (strcmp(tok, "-M") == 0 || strcmp(tok, "-MM") == 0 || strcmp(tok, "-MP") == 0 ||
        strcmp(tok, "-MG") == 0 || starts_with(tok, "-MF") || starts_with(tok, "-MT") ||
        starts_with(tok, "-MQ"))
      continue;
    out[o++] = ',';
    strcpy(out + o, tok);
    o += strlen(tok);
    kept++;
  }
  free(copy);
  if (!kept) {
    free(out);
    return NULL;
  }
  return out;
}

/* Copies args[0..n) into out without the dropped flags; stops at "--" and
 * returns its index (n when absent). */
static size_t filter_args(const char *const *args, size_t n, strvec *out) {
  for (size_t i = 0; i < n; i++) {
    const char *a = args[i];
    if (strcmp(a, "--") == 0)
      return i;
    if (takes_raw_next(a) && i + 1 < n) {
      sv_push(out, a);
      sv_push(out, args[++i]);
      continue;
    }
    int drop = dropped_count(a);
    if (drop) {
      i += (size_t)drop - 1;
      continue;
    }
    if (starts_with(a, "-Wp,")) {
      char *f = filter_wp(a);
      if (f)
        sv_push_own(out, f);
      continue;
    }
    sv_push(out, a);
  }
  return n;
}

void build_analysis_args(const char *const *argv, size_t argc, const cmd_options *o,
                         int substituted, strvec *out) {
  sv_push(out, argv[0]);
  size_t dashdash = 1 + filter_args(argv + 1, argc - 1, out);
  filter_args((const char *const *)o->extra_args.v, o->extra_args.n, out);
  sv_push(out, "-fsyntax-only");
  /* Compiler warnings must not turn into errors that stop the analysis, and
   * the plugin keeps its findings as warnings when -Werror is off. */
  sv_push(out, "-Wno-error");
#if SEQLINT_LLVM_MAJOR >= 22
  /* Findings are warnings of this group (core/Compat.h): a project's
   * -Wno-user-defined-warnings must not hide them from the runner. */
  sv_push(out, "-Wuser-defined-warnings");
#endif
  /* A crash is reported as "not analysed"; no reproducer files in /tmp. */
  sv_push(out, "-fno-crash-diagnostics");
  /* The runner reads the compiler's stderr (its statistics line, the first
   * error of a file that does not compile): no colour codes in it, whatever
   * the build asked for (meson passes -fdiagnostics-color=always). */
  sv_push(out, "-fno-color-diagnostics");
  sv_push_own(out, xasprintf("-fplugin=%s", o->plugin));
  /* Findings stay warnings even where -Werror comes back (the plugin picks
   * the level itself: clang 19 applies no -W flag to plugin diagnostics). */
  sv_push(out, "-fplugin-arg-seqlint-no-werror");
  /* One "seqlint-stats:" line on stderr: what was recognised (coverage.c). */
  sv_push(out, "-fplugin-arg-seqlint-stats");
  if (o->checks)
    sv_push_own(out, xasprintf("-fplugin-arg-seqlint-checks=%s", o->checks));
  if (o->config)
    sv_push_own(out, xasprintf("-fplugin-arg-seqlint-config=%s", o->config));
  if (substituted) {
    sv_push(out, "-Wno-unknown-warning-option");
    sv_push(out, "-Qunused-arguments");
  }
  for (size_t i = dashdash; i < argc; i++)
    sv_push(out, argv[i]);
}

