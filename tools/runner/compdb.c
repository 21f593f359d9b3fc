/* seqlint runner: the jobs to run, from compile_commands.json or from the
 * files named (compdb.h). */
#include "compdb.h"
#include "pool.h"

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
