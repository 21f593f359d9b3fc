/* seqlint — codebase runner.
 *
 *   seqlint [options] <file>... [-- <compiler flags>]
 *   seqlint -p <build dir> [options] [<file>...] [-- <extra compiler flags>]
 *
 * Compiles each translation unit with the seqlint plugin (-fsyntax-only),
 * reads the findings back from clang's serialized diagnostics, removes the
 * duplicates (a header seen by many translation units), and prints them as
 * text, JSON or SARIF. Exit status: 0 no findings, 1 findings, 2 usage error
 * or a file that could not be analysed. See docs/integration.md. */
#include "runner.h"

#include <errno.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef SEQLINT_VERSION
#define SEQLINT_VERSION "0.0.0"
#endif
#ifndef SEQLINT_CLANG
#define SEQLINT_CLANG ""
#endif
#ifndef SEQLINT_LLVM_MAJOR
#define SEQLINT_LLVM_MAJOR 19
#endif
/* The installed plugin relative to the installed runner's directory
 * (CMake: bindir -> SEQLINT_INSTALL_PLUGINDIR/seqlint.so). */
#ifndef SEQLINT_PLUGIN_RELPATH
#define SEQLINT_PLUGIN_RELPATH "../lib/seqlint/seqlint.so"
#endif
/* The plugin relative to the runner in a build tree (build/bin, build/lib). */
#define SEQLINT_PLUGIN_BUILD_RELPATH "../lib/seqlint.so"

typedef struct {
  const char *build_dir;
  const char *checks, *config, *plugin;
  const char *output, *baseline, *write_baseline;
  const char *source_root, *help_uri_base;
  out_format format;
  unsigned jobs;
  int have_dashdash;
  int quiet, list_checks;
  int merge;                /* seqlint merge SHARD... */
  const char *shard;        /* --shard=K/N */
  unsigned shard_k, shard_n;
  double progress_interval; /* -1: default */
  strvec files;
  strvec extra;
  strvec include, exclude; /* path globs */
} options;

static void usage(FILE *out) {
  fprintf(out,
          "Usage: seqlint [options] <file>... [-- <compiler flags>]\n"
          "       seqlint -p <build dir> [options] [<file>...] [-- <extra compiler flags>]\n"
          "       seqlint -p <build dir> --shard=K/N -o <shard file> [options]\n"
          "       seqlint merge [output options] <shard file>...\n"
          "\n"
          "Runs the seqlint compiler plugin over a code base and reports its findings.\n"
          "\n"
          "Options:\n"
          "  -p <dir>                 analyse the entries of <dir>/compile_commands.json\n"
          "                           (all of them, or those of the given files)\n"
          "  -j, --jobs <n>           run <n> compilers at a time (default: online CPUs)\n"
          "  --checks=<globs>         checks to run, as a clang-tidy glob list\n"
          "                           (passed to the plugin as -fplugin-arg-seqlint-checks)\n"
          "  --config=<file>          configuration file instead of the .seqlint.yaml lookup\n"
          "  --format=<format>        text (default), json, sarif, html or gitlab\n"
          "  -o, --output <file>      write the findings to <file> (default: standard output);\n"
          "                           with --format=html, the report directory (required)\n"
          "  --baseline=<file>        do not report the findings recorded in <file>\n"
          "  --write-baseline=<file>  record all current findings in <file>\n"
          "  --plugin=<path>          the plugin (default: $SEQLINT_PLUGIN, else\n"
          "                           <dir of seqlint>/" SEQLINT_PLUGIN_RELPATH "\n"
          "                           when installed, <dir of seqlint>/" SEQLINT_PLUGIN_BUILD_RELPATH "\n"
          "                           in a build tree)\n"
          "  --source-root=<dir>      SARIF: %%SRCROOT%% and the base of relative file\n"
          "                           URIs (default: the current directory)\n"
          "  --help-uri-base=<url>    SARIF: rules' helpUri is <url><check>.md\n"
          "  --shard=K/N              analyse the K-th of N parts of the files (split by\n"
          "                           a hash of their path) and save their state in the\n"
          "                           -o file; 'seqlint merge' joins the N shards into\n"
          "                           one report, as one run would give\n"
          "  --include=<glob>         analyse only the files whose path matches <glob>\n"
          "                           ('*' matches '/' too; repeatable)\n"
          "  --exclude=<glob>         do not analyse the files whose path matches <glob>\n"
          "                           (repeatable; applied after --include)\n"
          "  --list-checks            list the checks that --checks and .seqlint.yaml\n"
          "                           enable, and exit\n"
          "  -q, --quiet              no progress output\n"
          "  --progress-interval=<s>  when stderr is not a terminal, a progress line\n"
          "                           every <s> seconds (default 10; 0: every file)\n"
          "  -h, --help               show this help\n"
          "  --version                show the version\n"
          "\n"
          "Without -p, each file is compiled with the flags after \"--\" by $SEQLINT_CLANG,\n"
          "else by %s.\n"
          "With -p, flags after \"--\" are appended to every compile command.\n"
          "\n"
          "Exit status: 0 no findings, 1 findings, 2 usage error or a file that could not\n"
          "be analysed.\n",
          SEQLINT_CLANG[0] ? SEQLINT_CLANG : "clang");
}

static void usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "%s: error: ", g_prog);
  fprintf(stderr, fmt, arg);
  fputs("\n\n", stderr);
  usage(stderr);
}

/* Matches "-x VALUE", "-xVALUE" (short) or "--name=VALUE", "--name VALUE"
 * (long). Returns 1 and sets *val on a match, -1 when the value is missing. */
static int opt_value(char **argv, int argc, int *i, const char *name, const char **val) {
  const char *a = argv[*i];
  size_t n = strlen(name);
  if (strncmp(a, name, n) != 0)
    return 0;
  int is_short = name[1] != '-';
  if (a[n] == '\0') {
    if (*i + 1 >= argc)
      return -1;
    *val = argv[++*i];
    return 1;
  }
  if (a[n] == '=') {
    *val = a + n + 1;
    return 1;
  }
  if (is_short) {
    *val = a + n;
    return 1;
  }
  return 0;
}

/* 0 ok, 1 exit 0 (help/version), 2 usage error */
static int parse_options(int argc, char **argv, options *o) {
  int first = 1;
  if (argc > 1 && strcmp(argv[1], "merge") == 0) {
    o->merge = 1;
    first = 2;
  }
  for (int i = first; i < argc; i++) {
    const char *a = argv[i], *v = NULL;
    if (strcmp(a, "--") == 0) {
      o->have_dashdash = 1;
      for (int k = i + 1; k < argc; k++)
        sv_push(&o->extra, argv[k]);
      break;
    }
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 1;
    }
    if (strcmp(a, "--version") == 0) {
      printf("seqlint %s (LLVM %d)\n", SEQLINT_VERSION, SEQLINT_LLVM_MAJOR);
      return 1;
    }
    if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
      o->quiet = 1;
      continue;
    }
    if (strcmp(a, "--list-checks") == 0) {
      o->list_checks = 1;
      continue;
    }
    if (a[0] != '-' || a[1] == '\0') {
      sv_push(&o->files, a);
      continue;
    }
    static const struct {
      const char *name;
      int id;
    } opts[] = {{"--checks", 'c'},        {"--config", 'C'},
                {"--format", 'f'},        {"--output", 'o'},
                {"--baseline", 'b'},      {"--write-baseline", 'w'},
                {"--plugin", 'P'},        {"--jobs", 'j'},
                {"-j", 'j'},              {"-p", 'p'},
                {"-o", 'o'},              {"--include", 'I'},
                {"--exclude", 'X'},       {"--progress-interval", 'T'},
                {"--source-root", 'R'},   {"--sarif-root", 'R'},
                {"--help-uri-base", 'U'}, {"--shard", 'S'}};
    int id = 0, r = 0;
    for (size_t k = 0; k < sizeof opts / sizeof *opts && !id; k++) {
      r = opt_value(argv, argc, &i, opts[k].name, &v);
      if (r < 0) {
        usage_error("option '%s' needs a value", opts[k].name);
        return 2;
      }
      if (r > 0)
        id = opts[k].id;
    }
    if (!id) {
      usage_error("unknown option '%s'", a);
      return 2;
    }
    if (!v[0] && id != 'j') {
      usage_error("option '%s' needs a non-empty value", a);
      return 2;
    }
    switch (id) {
    case 'c': o->checks = v; break;
    case 'C': o->config = v; break;
    case 'o': o->output = v; break;
    case 'b': o->baseline = v; break;
    case 'w': o->write_baseline = v; break;
    case 'P': o->plugin = v; break;
    case 'p': o->build_dir = v; break;
    case 'I': sv_push(&o->include, v); break;
    case 'R': o->source_root = v; break;
    case 'U': o->help_uri_base = v; break;
    case 'X': sv_push(&o->exclude, v); break;
    case 'S':
      if (shard_parse(v, &o->shard_k, &o->shard_n) != 0) {
        usage_error("invalid shard '%s' (expected K/N with 1 <= K <= N, e.g. 2/3)", v);
        return 2;
      }
      o->shard = v;
      break;
    case 'T': {
      char *end = NULL;
      errno = 0;
      double t = strtod(v, &end);
      if (*end || errno || !(t >= 0) || t > 86400) {
        usage_error("invalid progress interval '%s' (expected seconds, 0 to 86400)", v);
        return 2;
      }
      o->progress_interval = t;
      break;
    }
    case 'f':
      if (strcmp(v, "text") == 0)
        o->format = FMT_TEXT;
      else if (strcmp(v, "json") == 0)
        o->format = FMT_JSON;
      else if (strcmp(v, "sarif") == 0)
        o->format = FMT_SARIF;
      else if (strcmp(v, "html") == 0)
        o->format = FMT_HTML;
      else if (strcmp(v, "gitlab") == 0)
        o->format = FMT_GITLAB;
      else {
        usage_error("unknown format '%s' (expected text, json, sarif, html or gitlab)", v);
        return 2;
      }
      break;
    case 'j': {
      char *end = NULL;
      errno = 0;
      unsigned long n = strtoul(v, &end, 10);
      if (!v[0] || *end || errno || v[0] == '-' || v[0] == '+' || n < 1 || n > 4096) {
        usage_error("invalid number of jobs '%s' (expected 1 to 4096)", v);
        return 2;
      }
      o->jobs = (unsigned)n;
      break;
    }
    }
  }
  if (o->format == FMT_HTML && !o->list_checks && (!o->output || strcmp(o->output, "-") == 0)) {
    usage_error("%s", "--format=html writes a directory: give it with -o <dir>");
    return 2;
  }
  if (o->merge) {
    const char *bad = o->build_dir ? "-p" : o->shard ? "--shard" : o->checks ? "--checks"
                      : o->config ? "--config" : o->include.n ? "--include"
                      : o->exclude.n ? "--exclude" : o->have_dashdash ? "--" : NULL;
    if (bad) {
      usage_error("'seqlint merge' takes no %s: the shards carry their database, checks "
                  "and configuration",
                  bad);
      return 2;
    }
    if (!o->files.n) {
      usage_error("%s", "'seqlint merge' needs the shard files (seqlint --shard=K/N -o FILE)");
      return 2;
    }
    return 0;
  }
  if (o->shard) {
    if (!o->output || strcmp(o->output, "-") == 0) {
      usage_error("%s", "--shard needs -o FILE: the shard's state, for 'seqlint merge'");
      return 2;
    }
    const char *bad = o->baseline ? "--baseline" : o->write_baseline ? "--write-baseline"
                      : o->format != FMT_TEXT ? "--format" : NULL;
    if (bad) {
      usage_error("%s belongs to 'seqlint merge', which writes the report", bad);
      return 2;
    }
  }
  if (!o->build_dir && o->files.n == 0 && !o->list_checks) {
    usage_error("%s", "no input files (give files, or -p <build dir>)");
    return 2;
  }
  return 0;
}

static int is_readable_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, R_OK) == 0;
}

/* --plugin, else $SEQLINT_PLUGIN, else next to this executable: the installed
 * layout (<bindir>/SEQLINT_PLUGIN_RELPATH), else the build tree's
 * (build/bin/../lib/seqlint.so). Relative to the executable, so that an
 * installed tree works wherever it is (a DESTDIR, a moved prefix). */
static char *resolve_plugin(const char *opt) {
  char *candidate = NULL;
  const char *how;
  if (opt) {
    candidate = xstrdup(opt);
    how = "--plugin";
  } else if (getenv("SEQLINT_PLUGIN") && getenv("SEQLINT_PLUGIN")[0]) {
    candidate = xstrdup(getenv("SEQLINT_PLUGIN"));
    how = "SEQLINT_PLUGIN";
  } else {
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n < 0) {
      err_msg("cannot locate the seqlint executable (/proc/self/exe: %s); pass --plugin=PATH "
              "or set SEQLINT_PLUGIN",
              strerror(errno));
      return NULL;
    }
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (slash)
      *slash = '\0';
    char *rel_installed = xasprintf("%s/%s", buf, SEQLINT_PLUGIN_RELPATH);
    char *rel_built = xasprintf("%s/%s", buf, SEQLINT_PLUGIN_BUILD_RELPATH);
    char *installed = path_canonical(NULL, rel_installed);
    char *built = path_canonical(NULL, rel_built);
    free(rel_installed);
    free(rel_built);
    char *abs = NULL;
    if (is_readable_file(installed))
      abs = xstrdup(installed);
    else if (is_readable_file(built))
      abs = xstrdup(built);
    else
      err_msg("plugin not found next to the runner: neither '%s' (installed) nor '%s' (build "
              "tree) is a readable file; install it with the runner (cmake --install), build it "
              "(cmake --build build), or pass --plugin=PATH or set SEQLINT_PLUGIN",
              installed, built);
    free(installed);
    free(built);
    return abs;
  }
  char *abs = path_canonical(NULL, candidate);
  struct stat st;
  if (stat(abs, &st) != 0 || !S_ISREG(st.st_mode) || access(abs, R_OK) != 0) {
    err_msg("plugin '%s' (from %s): %s; build it (cmake --build build), or pass "
            "--plugin=PATH or set SEQLINT_PLUGIN",
            candidate, how,
            stat(abs, &st) != 0      ? strerror(errno)
            : !S_ISREG(st.st_mode) ? "is not a file"
                                   : "is not readable");
    free(candidate);
    free(abs);
    return NULL;
  }
  free(candidate);
  return abs;
}

static char *resolve_config(const char *path) {
  struct stat st;
  FILE *f = fopen(path, "r");
  if (!f) {
    err_msg("cannot read config file '%s': %s", path, strerror(errno));
    return NULL;
  }
  int is_reg = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
  fclose(f);
  if (!is_reg) {
    err_msg("config file '%s' is not a regular file", path);
    return NULL;
  }
  return path_canonical(NULL, path);
}

/* The directory of a file to be written must exist and be writable. */
static int check_writable_dir(const char *path, const char *what) {
  char *copy = xstrdup(path);
  char *slash = strrchr(copy, '/');
  const char *dir = ".";
  if (slash) {
    *slash = '\0';
    dir = copy[0] ? copy : "/";
  }
  int ok = access(dir, W_OK | X_OK) == 0;
  if (!ok)
    err_msg("cannot write %s '%s': %s", what, path, strerror(errno));
  free(copy);
  return ok ? 0 : -1;
}

static const char *plural(size_t n, const char *one, const char *many) {
  return n == 1 ? one : many;
}

/* Runs the join of the summaries the compile jobs wrote, if any: the
 * plugin on an empty file with -fplugin-arg-seqlint-join=<tmpdir>. Its
 * findings are those of writer/reader pairs in different files. Returns
 * what run_jobs() returns. */
static int run_join(jobvec *jobs, const cmd_options *co, const char *tmpdir, job_t **out) {
  size_t n = 0;
  struct stat st;
  for (size_t i = 0; i < jobs->n; i++) {
    job_t *j = jobs->v[i];
    if (j->state == JOB_OK && j->summary_path && stat(j->summary_path, &st) == 0)
      n++;
  }
  if (n < 2) /* pairs across files need two files */
    return 0;
  jobvec one = {0};
  job_t *j = job_new("(program-wide barrier pairing)", cwd_path());
  j->want_summary = 0;
  sv_push(&j->args, co->clang);
  sv_push(&j->args, "-fsyntax-only");
  sv_push(&j->args, "-fno-crash-diagnostics");
#if SEQLINT_LLVM_MAJOR >= 22
  sv_push(&j->args, "-Wuser-defined-warnings");
#endif
  sv_push_own(&j->args, xasprintf("-fplugin=%s", co->plugin));
  sv_push(&j->args, "-fplugin-arg-seqlint-no-werror");
  sv_push_own(&j->args, xasprintf("-fplugin-arg-seqlint-join=%s", tmpdir));
  sv_push(&j->args, "-x");
  sv_push(&j->args, "c");
  sv_push(&j->args, "/dev/null");
  jv_push(&one, j);
  j->index = j->rank = jobs->n; /* its temporary files apart from the compile jobs' */
  int sig = run_jobs(&one, 1, tmpdir);
  free(one.v);
  *out = j;
  return sig;
}

/* The summaries are needed until the join has read them, the counters
 * files until the second round has run. */
static void remove_summaries(jobvec *jobs) {
  for (size_t i = 0; i < jobs->n; i++) {
    job_t *j = jobs->v[i];
    const char *files[] = {j->summary_path, j->counters_path, j->known_path};
    for (size_t k = 0; k < sizeof files / sizeof *files; k++)
      if (files[k] && unlink(files[k]) != 0 && errno != ENOENT)
        err_msg("cannot remove '%s': %s", files[k], strerror(errno));
  }
}

/* A counter of some translation unit, from its counters file. */
typedef struct {
  size_t owner; /* the job that has it, or SIZE_MAX for two or more */
  char *line;   /* "counter\t<id>\t<parity>" */
} counter_t;

static void counter_free(void *p) {
  counter_t *c = p;
  free(c->line);
  free(c);
}

/* Calls fn(job, kind, id, line) for each "<kind>\t<id>..." line of the
 * job's counters file (a missing file has none: the TU did not compile). */
static void each_counter_line(job_t *j, void (*fn)(job_t *, const char *, char *, const char *,
                                                   void *),
                              void *arg) {
  FILE *f = j->counters_path ? fopen(j->counters_path, "r") : NULL;
  if (!f)
    return;
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  while ((len = getline(&line, &cap, f)) > 0) {
    if (line[len - 1] == '\n')
      line[--len] = '\0';
    char *full = xstrdup(line);
    char *tab = strchr(line, '\t');
    if (tab) {
      *tab = '\0';
      char *id = tab + 1;
      char *end = strchr(id, '\t');
      if (end)
        *end = '\0';
      fn(j, line, id, full, arg);
    }
    free(full);
  }
  free(line);
  fclose(f);
}

static void collect_counter(job_t *j, const char *kind, char *id, const char *line, void *arg) {
  if (strcmp(kind, "counter") != 0)
    return;
  int created;
  void **slot = sm_slot(arg, id, &created);
  if (created) {
    counter_t *c = xmalloc(sizeof *c);
    c->owner = j->index;
    c->line = xstrdup(line);
    *slot = c;
  } else if (((counter_t *)*slot)->owner != j->index) {
    ((counter_t *)*slot)->owner = SIZE_MAX;
  }
}

typedef struct {
  strmap *counters;
  FILE *out; /* the job's known-counters file, once one line is wanted */
  int failed;
} known_ctx;

static void write_known(job_t *j, const char *kind, char *id, const char *line, void *arg) {
  (void)line;
  known_ctx *k = arg;
  counter_t *c = strcmp(kind, "candidate") == 0 ? sm_get(k->counters, id) : NULL;
  if (!c || c->owner == j->index || k->failed)
    return;
  if (!k->out) {
    k->out = fopen(j->known_path, "w");
    if (!k->out) {
      err_msg("cannot create '%s': %s", j->known_path, strerror(errno));
      k->failed = 1;
      return;
    }
  }
  fprintf(k->out, "%s\n", c->line);
}

/* Counters across translation units: a TU that uses a field like a counter
 * without the evidence (plain increments around plain stores, no barrier)
 * while another TU of the program uses the same field as one (its reader
 * tests the low bit and retries) is analysed again, told so. Only the TUs
 * with such a field run twice. Returns what run_jobs() returns. */
static int run_counter_round(jobvec *jobs, unsigned njobs, const char *tmpdir) {
  strmap counters = {0};
  for (size_t i = 0; i < jobs->n; i++)
    if (jobs->v[i]->state == JOB_OK)
      each_counter_line(jobs->v[i], collect_counter, &counters);
  size_t again = 0;
  for (size_t i = 0; counters.n && i < jobs->n; i++) {
    job_t *j = jobs->v[i];
    if (j->state != JOB_OK || !j->counters_path)
      continue;
    free(j->known_path);
    j->known_path = xasprintf("%s/%zu.known", tmpdir, j->rank);
    known_ctx k = {&counters, NULL, 0};
    each_counter_line(j, write_known, &k);
    if (k.out && fclose(k.out) != 0) {
      err_msg("cannot write '%s': %s", j->known_path, strerror(errno));
      k.failed = 1;
    }
    if (!k.out || k.failed) {
      free(j->known_path);
      j->known_path = NULL;
      continue;
    }
    /* Its findings are those of the second run. */
    fv_free(&j->findings);
    memset(&j->coverage, 0, sizeof j->coverage);
    j->state = JOB_PENDING;
    again++;
  }
  sm_free(&counters, counter_free);
  if (!again)
    return 0;
  note_msg("analysing %zu %s again with the counters of other files", again,
           plural(again, "file", "files"));
  return run_jobs(jobs, njobs, tmpdir);
}

/* --include/--exclude: fnmatch() globs (no FNM_PATHNAME: '*' matches '/')
 * against the file as displayed and as an absolute path. A file left out is
 * not a job: not compiled, not counted, not "not analysed". */
static int path_matches(const strvec *globs, const char *display, const char *abs) {
  for (size_t i = 0; i < globs->n; i++)
    if (fnmatch(globs->v[i], display, 0) == 0 || fnmatch(globs->v[i], abs, 0) == 0)
      return 1;
  return 0;
}

typedef struct {
  const strvec *include, *exclude;
} path_filter;

static int passes_filter(const job_t *j, void *arg) {
  const path_filter *f = arg;
  char *abs = path_canonical(NULL, j->display);
  int keep = (!f->include->n || path_matches(f->include, j->display, abs)) &&
             !path_matches(f->exclude, j->display, abs);
  free(abs);
  return keep;
}

static void filter_jobs(jobvec *jobs, const strvec *include, const strvec *exclude) {
  if (!include->n && !exclude->n)
    return;
  path_filter f = {include, exclude};
  size_t dropped = jv_retain(jobs, passes_filter, &f);
  if (dropped)
    note_msg("%zu %s left out by --include/--exclude", dropped,
             plural(dropped, "file", "files"));
  if (!jobs->n)
    err_msg("no file left to analyse after --include/--exclude");
}

/* One run's state, from the options to the report: main() calls the
 * stages below in order, each returning 0 to go on. */
typedef struct {
  options o;
  int exit_code;
  char *plugin, *config, *source_root;
  char *merge_checks, *merge_config; /* seqlint merge: the shards' */
  FILE *out;
  atomic_out ao; /* -o FILE: a temporary file renamed at the end */
  const char *out_name, *html_dir;
  strmap baseline;
  jobvec jobs;
  job_t **by_index; /* the jobs in the order given, for the error lines */
  findvec all;
  strmap seen;
  cmd_options co;
  char *tmpdir;
  job_t *join;
  compdb_stats db;
  run_coverage cov;
  size_t analysed, failed;
  int failed_join;
} run_t;

/* Resolves the plugin, configuration and baseline, opens the output. */
static int setup(run_t *r) {
  options *o = &r->o;
  /* --shard: -o names the shard's state, written by shard_write() */
  r->out_name = !o->shard && o->output && strcmp(o->output, "-") != 0 ? o->output : NULL;
  r->html_dir = o->format == FMT_HTML ? o->output : NULL;
  if (!(r->plugin = resolve_plugin(o->plugin)))
    return -1;
  if (o->config && !(r->config = resolve_config(o->config)))
    return -1;
  if (o->baseline && baseline_load(o->baseline, &r->baseline) != 0)
    return -1;
  if (o->write_baseline && check_writable_dir(o->write_baseline, "baseline") != 0)
    return -1;
  if (r->html_dir) {
    if (!o->list_checks && html_check_dir(r->html_dir) != 0)
      return -1;
    r->out = NULL; /* write_html() writes its files */
  } else if (r->out_name) {
    r->out = ao_open(&r->ao, r->out_name);
    if (!r->out) {
      err_msg("cannot open output file '%s': %s", r->out_name, strerror(errno));
      return -1;
    }
  } else {
    r->out = stdout;
  }

  r->co.plugin = r->plugin;
  r->co.checks = o->checks;
  r->co.config = r->config;
  const char *env_clang = getenv("SEQLINT_CLANG");
  r->co.clang =
      env_clang && env_clang[0] ? env_clang : SEQLINT_CLANG[0] ? SEQLINT_CLANG : "clang";
  r->co.extra_args = o->extra;

  if (o->source_root) {
    struct stat st;
    r->source_root = realpath(o->source_root, NULL);
    if (!r->source_root || stat(r->source_root, &st) != 0 || !S_ISDIR(st.st_mode)) {
      err_msg("--source-root '%s': %s", o->source_root,
              r->source_root ? "is not a directory" : strerror(errno));
      return -1;
    }
  }
  set_sarif_options(r->source_root, o->help_uri_base);
  return 0;
}

/* The jobs: a merge's shards, the database's entries or the files named;
 * then --include/--exclude and --shard. */
static int collect_jobs(run_t *r) {
  options *o = &r->o;
  if (o->merge) {
    /* The shards' units have run; continue where one run would. */
    int have_db = 0;
    if (!(r->tmpdir = make_temp_dir()))
      return -1;
    int loaded = shard_load(o->files.v, o->files.n, &r->jobs, &r->co, &r->db, &have_db,
                            r->tmpdir);
    r->merge_checks = (char *)r->co.checks;
    r->merge_config = (char *)r->co.config;
    if (loaded != 0) {
      remove_summaries(&r->jobs);
      return -1;
    }
    if (have_db)
      r->cov.db = &r->db;
    return 0;
  }
  if (o->build_dir) {
    if (compdb_jobs(o->build_dir, o->files.v, o->files.n, &r->co, &r->jobs, &r->db) != 0)
      return -1;
    r->cov.db = &r->db;
  } else {
    file_jobs(o->files.v, o->files.n, &r->co, &r->jobs);
  }
  filter_jobs(&r->jobs, &o->include, &o->exclude);
  if (!r->jobs.n && (o->include.n || o->exclude.n))
    return -1; /* a filter that leaves nothing is a mistake: exit 2 */
  if (o->shard)
    shard_select(&r->jobs, o->shard_k, o->shard_n);
  return 0;
}

/* Compiles the pending jobs, then (not in a shard) the counters round and
 * the program-wide join. Returns 0, -1 to stop (exit_code set), or the
 * signal that interrupted the run. */
static int analyse(run_t *r) {
  options *o = &r->o;
  set_progress(o->quiet, o->progress_interval);
  canonical_order(&r->jobs);
  if (probe_plugin(&r->jobs, &r->co) != 0)
    return -1;
  if (!r->tmpdir)
    r->tmpdir = r->jobs.n ? make_temp_dir() : NULL;
  int sig = run_jobs(&r->jobs, o->jobs, r->tmpdir);
  if (o->shard && !sig) {
    /* The state of this part; the rest (counters round, join, report) is
     * the merge's. */
    r->exit_code = shard_write(o->output, o->shard, &r->jobs, &r->co,
                               o->build_dir ? &r->db : NULL) == 0
                       ? 0
                       : 2;
    if (r->exit_code == 0)
      note_msg("shard %s: %zu %s analysed; join the shards with 'seqlint merge'", o->shard,
               r->jobs.n, plural(r->jobs.n, "file", "files"));
    remove_summaries(&r->jobs);
    return -1;
  }
  if (!sig)
    sig = run_counter_round(&r->jobs, o->jobs, r->tmpdir);
  /* Program-wide pairing: the TUs' message-passing summaries (written when
   * barrier-unpaired or mp-missing-barrier is on) joined in one more run. */
  if (!sig)
    sig = run_join(&r->jobs, &r->co, r->tmpdir, &r->join);
  remove_summaries(&r->jobs);
  return sig;
}

/* Interrupted: remove what the run made and die of the same signal. */
static void die_of(run_t *r, int sig) {
  if (r->out && r->out != stdout)
    ao_close(&r->ao, 0);
  r->out = NULL;
  for (size_t i = 0; i < r->jobs.n; i++)
    job_free(r->jobs.v[i]);
  free(r->jobs.v);
  r->jobs.v = NULL;
  r->jobs.n = 0;
  job_free(r->join);
  r->join = NULL;
  if (r->tmpdir && rmdir(r->tmpdir) != 0)
    err_msg("cannot remove temporary directory '%s': %s", r->tmpdir, strerror(errno));
  free(r->tmpdir);
  r->tmpdir = NULL;
  signal(sig, SIG_DFL);
  raise(sig);
}

/* The findings and coverage of every unit and of the join, merged in the
 * canonical order (not completion order, not the database's): the output
 * depends neither on -j nor on the order of the entries. */
static void gather(run_t *r) {
  jobvec *jobs = &r->jobs;
  r->by_index = jobs->n ? xmalloc(jobs->n * sizeof *r->by_index) : NULL;
  if (jobs->n)
    memcpy(r->by_index, jobs->v, jobs->n * sizeof *r->by_index);
  sort_by_rank(jobs);
  strmap ok_files = {0}, bad_files = {0};
  for (size_t i = 0; i < jobs->n; i++) {
    job_t *j = jobs->v[i];
    if (j->state == JOB_OK) {
      sm_slot(&ok_files, j->display, NULL);
      findings_merge(&r->all, &r->seen, &j->findings);
      /* What the plugin recognised, summed over the translation units. */
      r->cov.tus++;
      if (!j->coverage.lines)
        r->cov.tus_no_stats++;
      if (j->coverage.no_protocol)
        sv_push(&r->cov.no_protocol_files, j->display);
      coverage_add(&r->cov.sum, &j->coverage);
    } else {
      sm_slot(&bad_files, j->display, NULL);
    }
    if (j->db_entry && j->state == JOB_OK)
      r->cov.db_analysed++;
    else if (j->db_entry)
      r->cov.db_not_analysed++;
  }
  if (r->join) {
    if (r->join->state == JOB_OK)
      findings_merge(&r->all, &r->seen, &r->join->findings);
    else
      r->failed_join = 1;
  }
  r->analysed = ok_files.n;
  r->failed = bad_files.n;
  sm_free(&ok_files, NULL);
  sm_free(&bad_files, NULL);
  findings_finalize(&r->all);
}

/* The report in its format, the baseline, the errors and the summary line;
 * sets the exit code. */
static void report(run_t *r) {
  options *o = &r->o;
  int write_failed = 0;
  if (o->write_baseline && baseline_write(o->write_baseline, &r->all) != 0)
    write_failed = 1;

  findvec reported = {0};
  size_t suppressed = 0;
  for (size_t i = 0; i < r->all.n; i++) {
    if (o->baseline && sm_get(&r->baseline, r->all.v[i]->fingerprint))
      suppressed++;
    else
      fv_push(&reported, r->all.v[i]);
  }

  errno = 0;
  if (r->html_dir) {
    if (write_html(r->html_dir, &reported, &r->jobs, &r->cov) != 0)
      write_failed = 1;
    else if (!o->quiet)
      note_msg("HTML report written to '%s%sindex.html'", r->html_dir,
               ends_with(r->html_dir, "/") ? "" : "/");
  } else {
    int wr;
    switch (o->format) {
    case FMT_JSON: wr = write_json(r->out, &reported, &r->cov); break;
    case FMT_SARIF: wr = write_sarif(r->out, &reported, &r->jobs, &r->cov); break;
    case FMT_GITLAB: wr = write_gitlab(r->out, &reported); break;
    default: wr = write_text(r->out, &reported); break;
    }
    int saved = errno;
    if (wr == 0 && fflush(r->out) != 0)
      wr = -1, saved = errno;
    if (wr == 0 && ferror(r->out))
      wr = -1, saved = saved ? saved : EIO;
    if (r->out != stdout) {
      /* Renamed over the target only when everything was written. */
      if (ao_close(&r->ao, wr == 0) != 0 && wr == 0)
        wr = -1, saved = errno;
      r->out = NULL;
    }
    if (wr != 0) {
      const char *name = r->out_name;
      err_msg("cannot write %s%s%s: %s", name ? "'" : "", name ? name : "standard output",
              name ? "'" : "", strerror(saved ? saved : EIO));
      write_failed = 1;
    }
  }
  free(reported.v); /* borrowed from `all` */

  /* Errors in the order the files were given. */
  for (size_t i = 0; i < r->jobs.n; i++)
    if (r->by_index[i]->state == JOB_FAILED)
      err_msg("%s not analysed: %s", r->by_index[i]->display, r->by_index[i]->error);
  if (r->failed_join)
    err_msg("program-wide pairing failed: %s", r->join->error);

  size_t nrep = r->all.n - suppressed;
  fprintf(stderr, "%zu %s in %zu %s (%zu %s not analysed", nrep,
          plural(nrep, "finding", "findings"), r->analysed,
          plural(r->analysed, "file", "files"), r->failed,
          plural(r->failed, "file", "files"));
  if (o->baseline)
    fprintf(stderr, ", %zu %s suppressed by the baseline", suppressed,
            plural(suppressed, "finding", "findings"));
  fputc(')', stderr);
  /* "; checked N TUs: ...": 0 findings over code with nothing recognised
   * must not read like a clean run. */
  coverage_print_summary(stderr, &r->cov);

  r->exit_code = (r->failed || r->failed_join || write_failed) ? 2 : nrep ? 1 : 0;
}

static void teardown(run_t *r) {
  if (r->out && r->out != stdout)
    ao_close(&r->ao, 0);
  if (r->tmpdir) {
    if (rmdir(r->tmpdir) != 0)
      err_msg("cannot remove temporary directory '%s': %s", r->tmpdir, strerror(errno));
    free(r->tmpdir);
  }
  job_free(r->join);
  for (size_t i = 0; i < r->jobs.n; i++)
    job_free(r->jobs.v[i]);
  free(r->jobs.v);
  free(r->by_index);
  fv_free(&r->all);
  sm_free(&r->seen, NULL);
  sv_free(&r->cov.no_protocol_files);
  free(r->db.path);
  sm_free(&r->baseline, NULL);
  compdb_cleanup();
  source_cache_free();
  free(r->plugin);
  free(r->config);
  free(r->source_root);
  free(r->merge_checks);
  free(r->merge_config);
  sv_free(&r->o.files);
  sv_free(&r->o.extra);
  sv_free(&r->o.include);
  sv_free(&r->o.exclude);
}

int main(int argc, char **argv) {
  run_t r = {0};
  r.o.format = FMT_TEXT;
  r.o.progress_interval = -1;
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  r.o.jobs = ncpu > 0 ? (unsigned)(ncpu > 4096 ? 4096 : ncpu) : 1;

  /* Output errors (a closed pipe) are reported by the write calls. */
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = SIG_IGN;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGPIPE, &sa, NULL);

  int rc = parse_options(argc, argv, &r.o);
  if (rc) {
    teardown(&r);
    if (rc == 1 && (fflush(stdout) != 0 || ferror(stdout))) {
      err_msg("cannot write to standard output: %s", strerror(errno));
      return 2;
    }
    return rc == 1 ? 0 : 2;
  }

  r.exit_code = 2;
  if (setup(&r) == 0) {
    if (r.o.list_checks) {
      r.exit_code = list_checks(&r.co) == 0 ? 0 : 2;
    } else if (collect_jobs(&r) == 0) {
      int sig = analyse(&r);
      if (sig > 0)
        die_of(&r, sig);
      if (sig == 0) {
        gather(&r);
        report(&r);
      }
    }
  }
  teardown(&r);
  if (fflush(stdout) != 0 && r.exit_code != 2) {
    err_msg("cannot write to standard output: %s", strerror(errno));
    r.exit_code = 2;
  }
  return r.exit_code;
}
