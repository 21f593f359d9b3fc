/* seqlint runner: the jobs to run — from compile_commands.json (read with
 * libclang's CXCompilationDatabase) or from files and "-- <flags>" — and the
 * rewrite of a compile command into an analysis command. */
#include "runner.h"

#include <clang-c/CXCompilationDatabase.h>
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef SEQLINT_LLVM_MAJOR
#define SEQLINT_LLVM_MAJOR 19
#endif

strmap g_dropped_flags;

/* ---- jobs ---------------------------------------------------------------- */

void jv_push(jobvec *jv, job_t *j) {
  if (jv->n == jv->cap) {
    jv->cap = jv->cap ? jv->cap * 2 : 64;
    jv->v = xrealloc(jv->v, jv->cap * sizeof *jv->v);
  }
  j->index = jv->n;
  jv->v[jv->n++] = j;
}

size_t jv_retain(jobvec *jv, int (*keep)(const job_t *, void *), void *arg) {
  size_t kept = 0, dropped = 0;
  for (size_t i = 0; i < jv->n; i++) {
    job_t *j = jv->v[i];
    if (keep(j, arg)) {
      j->index = kept;
      jv->v[kept++] = j;
    } else {
      job_free(j);
      dropped++;
    }
  }
  jv->n = kept;
  return dropped;
}

job_t *job_new(const char *display, const char *directory) {
  job_t *j = xcalloc(1, sizeof *j);
  j->display = xstrdup(display);
  j->directory = xstrdup(directory);
  j->state = JOB_PENDING;
  j->pid = -1;
  j->want_summary = 1;
  return j;
}

static int cmp_canonical(const void *a, const void *b) {
  const job_t *x = *(job_t *const *)a, *y = *(job_t *const *)b;
  int c = strcmp(x->display, y->display);
  for (size_t i = 0; !c && i < x->args.n && i < y->args.n; i++)
    c = strcmp(x->args.v[i], y->args.v[i]);
  if (!c && x->args.n != y->args.n)
    c = x->args.n < y->args.n ? -1 : 1;
  if (!c) /* the same command twice: identical results either way */
    c = x->index < y->index ? -1 : x->index > y->index;
  return c;
}

void canonical_order(jobvec *jv) {
  if (!jv->n)
    return;
  job_t **sorted = xmalloc(jv->n * sizeof *sorted);
  memcpy(sorted, jv->v, jv->n * sizeof *sorted);
  qsort(sorted, jv->n, sizeof *sorted, cmp_canonical);
  for (size_t i = 0; i < jv->n; i++)
    sorted[i]->rank = i;
  free(sorted);
}

static int cmp_rank(const void *a, const void *b) {
  const job_t *x = *(job_t *const *)a, *y = *(job_t *const *)b;
  return x->rank < y->rank ? -1 : x->rank > y->rank;
}

void sort_by_rank(jobvec *jv) {
  if (jv->n)
    qsort(jv->v, jv->n, sizeof *jv->v, cmp_rank);
}

void job_fail(job_t *j, char *error) {
  j->state = JOB_FAILED;
  free(j->error);
  j->error = error;
  fv_free(&j->findings); /* findings of a TU that did not compile are not reported */
}

void job_free(job_t *j) {
  if (!j)
    return;
  free(j->display);
  free(j->directory);
  sv_free(&j->args);
  free(j->error);
  fv_free(&j->findings);
  free(j->dia_path);
  free(j->err_path);
  free(j->summary_path);
  free(j->counters_path);
  free(j->known_path);
  free(j->saved_summary);
  free(j->saved_counters);
  free(j);
}

/* ---- command rewriting --------------------------------------------------- */

/* Options whose next argument belongs to them and must not be interpreted. */
static int takes_raw_next(const char *a) {
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
    if (sm_get(&g_dropped_flags, a))
      continue;
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

/* ---- compiler choice ----------------------------------------------------- */

static int is_wrapper(const char *argv0) {
  const char *b = base_name(argv0);
  return strcmp(b, "ccache") == 0 || strcmp(b, "sccache") == 0 || strcmp(b, "distcc") == 0 ||
         strcmp(b, "icecc") == 0;
}

static strmap g_compiler_ok; /* compiler → 1 (no) or 2 (yes) */

/* The file `compiler` runs (as execvp() finds it from `dir`), resolved;
 * NULL when there is none. */
static char *resolve_program(const char *compiler, const char *dir) {
  if (strchr(compiler, '/')) {
    char *full = path_join(dir, compiler);
    char *real = realpath(full, NULL);
    free(full);
    return real;
  }
  const char *path = getenv("PATH");
  char *copy = xstrdup(path ? path : "/usr/local/bin:/usr/bin:/bin");
  char *found = NULL;
  for (char *save = NULL, *d = strtok_r(copy, ":", &save); d && !found;
       d = strtok_r(NULL, ":", &save)) {
    char *cand = path_join(d[0] ? d : ".", compiler);
    if (access(cand, X_OK) == 0)
      found = realpath(cand, NULL);
    free(cand);
  }
  free(copy);
  return found;
}

/* 1 when `compiler` (run from `dir`) is a clang of the plugin's major: the
 * clang the runner was built with (no process started), or one whose
 * --version says so. */
static int compiler_matches(const char *compiler, const char *dir) {
  char *key = strchr(compiler, '/') && compiler[0] != '/' ? path_join(dir, compiler)
                                                          : xstrdup(compiler);
  int created;
  void **slot = sm_slot(&g_compiler_ok, key, &created);
  free(key);
  if (created && SEQLINT_CLANG[0]) {
    char *mine = realpath(SEQLINT_CLANG, NULL);
    char *theirs = mine ? resolve_program(compiler, dir) : NULL;
    if (theirs && strcmp(mine, theirs) == 0) {
      *slot = (void *)(size_t)2;
      created = 0;
    }
    free(mine);
    free(theirs);
  }
  if (created) {
    const char *argv[] = {compiler, "--version", NULL};
    char *text = capture_output(argv, dir);
    int ok = 0;
    const char *v = text ? strstr(text, "clang version ") : NULL;
    if (v) {
      v += strlen("clang version ");
      ok = atoi(v) == SEQLINT_LLVM_MAJOR;
    }
    free(text);
    *slot = (void *)(ok ? (size_t)2 : (size_t)1);
  }
  return *slot == (void *)(size_t)2;
}

/* "aarch64-linux-gnu-gcc-12" → "aarch64-linux-gnu": the target a cross
 * compiler implies, for the clang that replaces it. NULL when none. */
static char *cross_target(const char *compiler) {
  char *name = xstrdup(base_name(compiler));
  size_t n = strlen(name);
  while (n > 0 && ((name[n - 1] >= '0' && name[n - 1] <= '9') || name[n - 1] == '.'))
    n--;
  if (n > 0 && n < strlen(name) && name[n - 1] == '-')
    name[--n] = '\0'; /* versioned: "-12" */
  name[n] = '\0';
  static const char *const suffixes[] = {"-gcc", "-cc", "-g++", "-c++"};
  char *triple = NULL;
  for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
    if (!ends_with(name, suffixes[i]))
      continue;
    name[n - strlen(suffixes[i])] = '\0';
    const char *dash = strchr(name, '-'); /* a triple has at least two */
    if (dash && strchr(dash + 1, '-'))
      triple = xstrdup(name);
    break;
  }
  free(name);
  return triple;
}

static int has_target(const strvec *argv) {
  for (size_t i = 0; i < argv->n; i++)
    if (strcmp(argv->v[i], "-target") == 0 || starts_with(argv->v[i], "--target="))
      return 1;
  return 0;
}

static strmap g_substitution_noted;

void compdb_cleanup(void) {
  sm_free(&g_compiler_ok, NULL);
  sm_free(&g_substitution_noted, NULL);
  sm_free(&g_dropped_flags, NULL);
}

static void note_substitution(const char *compiler, const char *dir, const char *clang) {
  int created;
  sm_slot(&g_substitution_noted, compiler, &created);
  if (!created)
    return;
  char *found = resolve_program(compiler, dir);
  if (!found)
    note_msg("'%s' does not exist here (%s); analysing its entries with '%s' and the same "
             "flags",
             compiler, strchr(compiler, '/') ? "no such file" : "not found on PATH", clang);
  else
    note_msg("'%s' is not clang %d, the only compiler the plugin runs in (GCC cannot load "
             "it); analysing its entries with '%s' and the same flags",
             compiler, SEQLINT_LLVM_MAJOR, clang);
  free(found);
}

/* ---- compile_commands.json ------------------------------------------------- */

static const char *entry_problem(json_t *e) {
  if (!json_is_object(e))
    return "is not an object";
  if (!json_is_string(json_object_get(e, "directory")))
    return "has no \"directory\" string";
  if (!json_is_string(json_object_get(e, "file")))
    return "has no \"file\" string";
  json_t *args = json_object_get(e, "arguments");
  json_t *cmd = json_object_get(e, "command");
  if (args) {
    if (!json_is_array(args) || json_array_size(args) == 0)
      return "has an empty or non-array \"arguments\"";
    size_t i;
    json_t *a;
    json_array_foreach(args, i, a) {
      if (!json_is_string(a))
        return "has a non-string argument";
    }
  } else if (!json_is_string(cmd) || !json_string_value(cmd)[0]) {
    return "has neither \"arguments\" nor \"command\"";
  }
  return NULL;
}

/* Checks the file with jansson first: libclang only says "cannot load". */
static int validate_db(const char *path) {
  json_error_t jerr;
  json_t *root = json_load_file(path, 0, &jerr);
  if (!root) {
    err_msg("malformed compilation database '%s': %s (line %d, column %d)", path, jerr.text,
            jerr.line, jerr.column);
    return -1;
  }
  int rc = 0;
  if (!json_is_array(root)) {
    err_msg("malformed compilation database '%s': expected an array of compile commands", path);
    rc = -1;
  } else if (json_array_size(root) == 0) {
    err_msg("compilation database '%s' has no entries", path);
    rc = -1;
  } else {
    size_t i;
    json_t *e;
    json_array_foreach(root, i, e) {
      const char *why = entry_problem(e);
      if (why) {
        err_msg("malformed compilation database '%s': entry %zu %s", path, i + 1, why);
        rc = -1;
        break;
      }
    }
  }
  json_decref(root);
  return rc;
}

/* An assembly source (by its -x language, else its extension): nothing for
 * seqlint to analyse. */
static int is_assembly(const char *file, const strvec *argv) {
  const char *lang = NULL;
  for (size_t i = 1; i < argv->n; i++) {
    const char *a = argv->v[i];
    if (takes_raw_next(a)) {
      i++;
    } else if (strcmp(a, "-x") == 0 && i + 1 < argv->n) {
      lang = argv->v[++i];
    } else if (starts_with(a, "-x") && a[2]) {
      lang = a + 2;
    }
  }
  if (lang && strcmp(lang, "none") != 0)
    return starts_with(lang, "assembler");
  const char *dot = strrchr(base_name(file), '.');
  return dot && (strcmp(dot, ".s") == 0 || strcmp(dot, ".S") == 0 || strcmp(dot, ".sx") == 0 ||
                 strcmp(dot, ".asm") == 0);
}

/* The analysis command of a job, as a key: the same directory and the same
 * command (file and flags, outputs dropped) is the same analysis. */
static char *job_key(const job_t *j) {
  size_t n = strlen(j->directory) + 1;
  for (size_t i = 0; i < j->args.n; i++)
    n += strlen(j->args.v[i]) + 1;
  char *key = xmalloc(n + 1);
  char *p = stpcpy(key, j->directory);
  for (size_t i = 0; i < j->args.n; i++) {
    *p++ = '\x1f';
    p = stpcpy(p, j->args.v[i]);
  }
  return key;
}

/* Adds the job of one entry: 0, or 1 when it is skipped as a duplicate of an
 * earlier entry (`seen`: the analysis commands so far), 2 as not C. */
static int add_command(CXCompileCommand cmd, const cmd_options *o, jobvec *out,
                       const char *db_path, strmap *seen) {
  CXString sdir = clang_CompileCommand_getDirectory(cmd);
  CXString sfile = clang_CompileCommand_getFilename(cmd);
  const char *dir = clang_getCString(sdir);
  const char *file = clang_getCString(sfile);
  unsigned nargs = clang_CompileCommand_getNumArgs(cmd);
  strvec argv = {0};
  for (unsigned i = 0; i < nargs; i++) {
    CXString a = clang_CompileCommand_getArg(cmd, i);
    sv_push(&argv, clang_getCString(a));
    clang_disposeString(a);
  }
  if (is_assembly(file, &argv)) {
    sv_free(&argv);
    clang_disposeString(sdir);
    clang_disposeString(sfile);
    return 2;
  }
  char *abs = path_canonical(dir, file);
  char *display = path_display(abs);
  job_t *j = job_new(display, dir);
  j->db_entry = 1;
  jv_push(out, j);

  int skipped = 0;
  struct stat st;
  if (stat(abs, &st) != 0) {
    job_fail(j, xasprintf("%s (listed in '%s')", strerror(errno), db_path));
  } else if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    job_fail(j, xasprintf("its directory '%s' does not exist (listed in '%s')", dir, db_path));
  } else {
    size_t skip = 0;
    while (skip + 1 < argv.n && is_wrapper(argv.v[skip]))
      skip++;
    if (argv.n <= skip) {
      job_fail(j, xasprintf("empty compile command (listed in '%s')", db_path));
    } else {
      const char *compiler = argv.v[skip];
      if (!compiler_matches(compiler, dir)) {
        note_substitution(compiler, dir, o->clang);
        char *target = has_target(&argv) ? NULL : cross_target(compiler);
        strvec nv = {0};
        sv_push(&nv, o->clang);
        if (target) /* keep the target the cross compiler implied */
          sv_push_own(&nv, xasprintf("--target=%s", target));
        for (size_t i = skip + 1; i < argv.n; i++)
          sv_push(&nv, argv.v[i]);
        free(target);
        sv_free(&argv);
        argv = nv;
        skip = 0;
        j->substituted = 1;
      }
      build_analysis_args((const char *const *)argv.v + skip, argv.n - skip, o, j->substituted,
                          &j->args);
      char *key = job_key(j);
      int created;
      sm_slot(seen, key, &created);
      free(key);
      if (!created) { /* the same analysis as an earlier entry's */
        out->n--;
        job_free(j);
        skipped = 1;
      }
    }
  }
  sv_free(&argv);
  free(abs);
  free(display);
  clang_disposeString(sdir);
  clang_disposeString(sfile);
  return skipped;
}

int compdb_jobs(const char *dir, char **files, size_t nfiles, const cmd_options *o,
                jobvec *out, compdb_stats *st_out) {
  struct stat st;
  if (stat(dir, &st) != 0) {
    err_msg("build directory '%s': %s", dir, strerror(errno));
    return -1;
  }
  if (!S_ISDIR(st.st_mode)) {
    err_msg("'%s' is not a directory (-p takes the directory that holds compile_commands.json)",
            dir);
    return -1;
  }
  char *db_path = path_join(dir, "compile_commands.json");
  if (stat(db_path, &st) != 0) {
    err_msg("no compile_commands.json in '%s': %s (generate it with "
            "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON, bear, or the project's script)",
            dir, strerror(errno));
    free(db_path);
    return -1;
  }
  if (validate_db(db_path) != 0) {
    free(db_path);
    return -1;
  }
  CXCompilationDatabase_Error cerr = CXCompilationDatabase_NoError;
  CXCompilationDatabase db = clang_CompilationDatabase_fromDirectory(dir, &cerr);
  if (!db || cerr != CXCompilationDatabase_NoError) {
    err_msg("cannot load compilation database '%s'", db_path);
    if (db)
      clang_CompilationDatabase_dispose(db);
    free(db_path);
    return -1;
  }

  /* The files asked for, canonical → 1 (2 once an entry matched). Not
   * clang_CompilationDatabase_getCompileCommands(): for a file that is not
   * in the database it makes a command up from a similar entry. */
  strmap wanted = {0};
  strvec order = {0};
  for (size_t f = 0; f < nfiles; f++) {
    char *abs = path_canonical(NULL, files[f]);
    int created;
    void **slot = sm_slot(&wanted, abs, &created);
    if (created) {
      *slot = (void *)1;
      sv_push(&order, abs);
    }
    free(abs);
  }
  CXCompileCommands cmds = clang_CompilationDatabase_getAllCompileCommands(db);
  unsigned n = cmds ? clang_CompileCommands_getSize(cmds) : 0;
  strmap seen = {0};
  memset(st_out, 0, sizeof *st_out);
  st_out->path = xstrdup(db_path);
  st_out->entries = n;
  for (unsigned i = 0; i < n; i++) {
    CXCompileCommand cmd = clang_CompileCommands_getCommand(cmds, i);
    if (nfiles) {
      CXString sdir = clang_CompileCommand_getDirectory(cmd);
      CXString sfile = clang_CompileCommand_getFilename(cmd);
      char *abs = path_canonical(clang_getCString(sdir), clang_getCString(sfile));
      clang_disposeString(sdir);
      clang_disposeString(sfile);
      int listed = sm_get(&wanted, abs) != NULL;
      if (listed)
        *sm_slot(&wanted, abs, NULL) = (void *)2;
      free(abs);
      if (!listed) {
        st_out->not_selected++;
        continue;
      }
    }
    int skipped = add_command(cmd, o, out, db_path, &seen);
    if (skipped == 1)
      st_out->duplicates++;
    else if (skipped == 2)
      st_out->not_c++;
  }
  sm_free(&seen, NULL);
  if (cmds)
    clang_CompileCommands_dispose(cmds);
  for (size_t f = 0; f < order.n; f++) {
    if (sm_get(&wanted, order.v[f]) != (void *)1)
      continue;
    char *display = path_display(order.v[f]);
    job_t *j = job_new(display, cwd_path());
    jv_push(out, j);
    struct stat fst;
    if (stat(order.v[f], &fst) != 0)
      job_fail(j, xstrdup(strerror(errno)));
    else
      job_fail(j, xasprintf("not in the compilation database '%s'", db_path));
    free(display);
  }
  sv_free(&order);
  sm_free(&wanted, NULL);
  clang_CompilationDatabase_dispose(db);
  free(db_path);
  return 0;
}

void file_jobs(char **files, size_t nfiles, const cmd_options *o, jobvec *out) {
  for (size_t f = 0; f < nfiles; f++) {
    char *abs = path_canonical(NULL, files[f]);
    char *display = path_display(abs);
    job_t *j = job_new(display, cwd_path());
    jv_push(out, j);
    struct stat st;
    if (stat(files[f], &st) != 0) {
      job_fail(j, xstrdup(strerror(errno)));
    } else if (S_ISDIR(st.st_mode)) {
      job_fail(j, xstrdup("is a directory"));
    } else {
      strvec argv = {0};
      sv_push(&argv, o->clang);
      for (size_t i = 0; i < o->extra_args.n; i++)
        sv_push(&argv, o->extra_args.v[i]);
      sv_push(&argv, files[f]);
      /* extra args already placed before the file: build without them */
      cmd_options plain = *o;
      memset(&plain.extra_args, 0, sizeof plain.extra_args);
      build_analysis_args((const char *const *)argv.v, argv.n, &plain, 0, &j->args);
      sv_free(&argv);
    }
    free(abs);
    free(display);
  }
}
