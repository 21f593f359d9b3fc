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
#include "args.h"
#include "compdb.h"
#include "configs.h"
#include "coverage.h"
#include "exec.h"
#include "findings.h"
#include "html.h"
#include "job.h"
#include "options.h"
#include "output.h"
#include "probe.h"
#include "program.h"
#include "shard.h"
#include "util.h"

#include <errno.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef SEQLINT_CLANG
#define SEQLINT_CLANG ""
#endif

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
  flag_filter flags; /* learnt in one round, applied in the next */
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
  size_t suppressed; /* by the baseline */
  int write_failed;  /* a report or baseline file could not be written */
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
    if (!o->all_configurations)
      r->db.other_configs = configs_select(&r->jobs);
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
static int run_analysis(run_t *r) {
  options *o = &r->o;
  set_progress(o->quiet, o->progress_interval);
  canonical_order(&r->jobs);
  if (probe_plugin(&r->jobs, &r->co) != 0)
    return -1;
  if (!r->tmpdir)
    r->tmpdir = r->jobs.n ? make_temp_dir() : NULL;
  int sig = run_jobs(&r->jobs, o->jobs, r->tmpdir, &r->flags);
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
    sig = run_counter_round(&r->jobs, o->jobs, r->tmpdir, &r->flags);
  /* Program-wide pairing: the TUs' message-passing summaries (written when
   * barrier-unpaired or mp-missing-barrier is on) joined in one more run. */
  if (!sig)
    sig = run_join(&r->jobs, &r->co, r->tmpdir, &r->flags, &r->join);
  remove_summaries(&r->jobs);
  return sig;
}

/* Interrupted: remove what the run made and die of the same signal. */
static void die_of(run_t *r, int sig) {
  if (r->out && r->out != stdout)
    ao_close(&r->ao, 0);
  r->out = NULL;
  jv_free(&r->jobs);
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
static void merge_results(run_t *r) {
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
      findings_merge(&r->all, &r->seen, &j->findings, j->rank);
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
      findings_merge(&r->all, &r->seen, &r->join->findings, r->join->rank);
    else
      r->failed_join = 1;
  }
  r->analysed = ok_files.n;
  r->failed = bad_files.n;
  sm_free(&ok_files, NULL);
  sm_free(&bad_files, NULL);
  configs_note(&r->all, &r->jobs);
  findings_finalize(&r->all);
}

/* --write-baseline records every finding; --baseline keeps the recorded
 * ones out of `reported` (which borrows them from r->all). */
static void apply_baseline(run_t *r, findvec *reported) {
  options *o = &r->o;
  if (o->write_baseline && baseline_write(o->write_baseline, &r->all) != 0)
    r->write_failed = 1;
  for (size_t i = 0; i < r->all.n; i++) {
    if (o->baseline && sm_get(&r->baseline, r->all.v[i]->fingerprint))
      r->suppressed++;
    else
      fv_push(reported, r->all.v[i]);
  }
}

/* The findings in the chosen format, to the output or the HTML directory. */
static void write_report(run_t *r, const findvec *reported) {
  options *o = &r->o;
  errno = 0;
  if (r->html_dir) {
    if (write_html(r->html_dir, reported, &r->jobs, &r->cov) != 0)
      r->write_failed = 1;
    else if (!o->quiet)
      note_msg("HTML report written to '%s%sindex.html'", r->html_dir,
               ends_with(r->html_dir, "/") ? "" : "/");
    return;
  }
  int wr;
  switch (o->format) {
  case FMT_JSON: wr = write_json(r->out, reported, &r->cov); break;
  case FMT_SARIF: wr = write_sarif(r->out, reported, &r->jobs, &r->cov); break;
  case FMT_GITLAB: wr = write_gitlab(r->out, reported); break;
  default: wr = write_text(r->out, reported); break;
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
    r->write_failed = 1;
  }
}

/* The errors, in the order the files were given, and the summary line;
 * sets the exit code. */
static void report(run_t *r) {
  options *o = &r->o;
  for (size_t i = 0; i < r->jobs.n; i++)
    if (r->by_index[i]->state == JOB_FAILED)
      err_msg("%s not analysed: %s", r->by_index[i]->display, r->by_index[i]->error);
  if (r->failed_join)
    err_msg("program-wide pairing failed: %s", r->join->error);

  size_t nrep = r->all.n - r->suppressed;
  fprintf(stderr, "%zu %s in %zu %s (%zu %s not analysed", nrep,
          plural(nrep, "finding", "findings"), r->analysed,
          plural(r->analysed, "file", "files"), r->failed,
          plural(r->failed, "file", "files"));
  if (o->baseline)
    fprintf(stderr, ", %zu %s suppressed by the baseline", r->suppressed,
            plural(r->suppressed, "finding", "findings"));
  fputc(')', stderr);
  /* "; checked N TUs: ...": 0 findings over code with nothing recognised
   * must not read like a clean run. */
  coverage_print_summary(stderr, &r->cov);

  r->exit_code = (r->failed || r->failed_join || r->write_failed) ? 2 : nrep ? 1 : 0;
}

/* collect -> run -> merge -> baseline -> report. A stage that fails has
 * printed why and left exit_code at 2; an interruption ends the process. */
static void run_stages(run_t *r) {
  if (collect_jobs(r) != 0)
    return;
  int sig = run_analysis(r);
  if (sig > 0)
    die_of(r, sig);
  if (sig != 0)
    return;
  merge_results(r);
  findvec reported = {0};
  apply_baseline(r, &reported);
  write_report(r, &reported);
  free(reported.v); /* borrowed from r->all */
  report(r);
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
  jv_free(&r->jobs);
  flag_filter_free(&r->flags);
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
  options_free(&r->o);
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
    if (r.o.list_checks)
      r.exit_code = list_checks(&r.co) == 0 ? 0 : 2;
    else
      run_stages(&r);
  }
  teardown(&r);
  if (fflush(stdout) != 0 && r.exit_code != 2) {
    err_msg("cannot write to standard output: %s", strerror(errno));
    r.exit_code = 2;
  }
  return r.exit_code;
}
