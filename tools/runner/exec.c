/* seqlint runner: the analysis run (exec.h) — one compiler process per
 * translation unit on the process pool, the findings read back from each,
 * and the progress line. */
#include "exec.h"

#include "diag.h"
#include "pool.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- progress line (stderr is a terminal only) ----------------------------- */

static int g_progress;
static int g_progress_shown;
static int g_quiet;                /* -q: no progress of either kind */
static double g_log_interval = 10; /* seconds between lines when not a terminal */
static double g_log_last;          /* when the last line was printed */
static double g_log_start;

void set_progress(int quiet, double interval) {
  g_quiet = quiet;
  if (interval >= 0)
    g_log_interval = interval;
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Not a terminal (a CI log): a plain line now and then, so that a long run
 * does not look hung. "[120/3400] 3.5%  eta 4m" */
static void progress_log(size_t done, size_t total) {
  if (g_quiet || g_progress || total < 2)
    return;
  double now = now_seconds();
  if (now - g_log_last < g_log_interval)
    return;
  g_log_last = now;
  double pct = 100.0 * (double)done / (double)total;
  double elapsed = now - g_log_start;
  char eta[32] = "";
  if (done > 1 && elapsed > 0) {
    double left = elapsed / (double)(done - 1) * (double)(total - done + 1);
    if (left >= 3600)
      snprintf(eta, sizeof eta, "  eta %.0fh%02.0fm", left / 3600,
               (double)((long)left % 3600 / 60));
    else if (left >= 60)
      snprintf(eta, sizeof eta, "  eta %.0fm", left / 60);
    else
      snprintf(eta, sizeof eta, "  eta %.0fs", left);
  }
  fprintf(stderr, "%s: [%zu/%zu] %.1f%%%s\n", g_prog, done, total, pct, eta);
  fflush(stderr);
}

static void progress_show(size_t done, size_t total, const char *name) {
  if (!g_progress)
    return;
  struct winsize ws;
  size_t width = 80;
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
    width = ws.ws_col;
  char prefix[64];
  int plen = snprintf(prefix, sizeof prefix, "[%zu/%zu] ", done, total);
  size_t room = width > (size_t)plen + 4 ? width - (size_t)plen - 1 : 3;
  size_t nlen = strlen(name);
  if (nlen > room)
    fprintf(stderr, "\r%s...%s\033[K", prefix, name + nlen - (room - 3));
  else
    fprintf(stderr, "\r%s%s\033[K", prefix, name);
  fflush(stderr);
  g_progress_shown = 1;
}

static void progress_clear(void) {
  if (g_progress && g_progress_shown) {
    fputs("\r\033[K", stderr);
    fflush(stderr);
    g_progress_shown = 0;
  }
}

/* The files the plugin writes for the runner, and reads in its second
 * round. */
static void push_plugin_files(const job_t *j, strvec *argv) {
  if (j->summary_path)
    sv_push_own(argv, xasprintf("-fplugin-arg-seqlint-summary=%s", j->summary_path));
  if (j->counters_path)
    sv_push_own(argv, xasprintf("-fplugin-arg-seqlint-counters=%s", j->counters_path));
  if (j->known_path)
    sv_push_own(argv, xasprintf("-fplugin-arg-seqlint-known-counters=%s", j->known_path));
}

static void remove_temp_files(job_t *j) {
  if (j->dia_path && unlink(j->dia_path) != 0 && errno != ENOENT)
    err_msg("cannot remove '%s': %s", j->dia_path, strerror(errno));
  if (j->err_path && unlink(j->err_path) != 0 && errno != ENOENT)
    err_msg("cannot remove '%s': %s", j->err_path, strerror(errno));
}

/* First line of the compiler's stderr that reports an error, else the first
 * non-empty line (the plugin's statistics line is not shown). */
static char *first_stderr_error(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f)
    return NULL;
  char *line = NULL, *first = NULL, *result = NULL;
  size_t cap = 0;
  ssize_t n;
  int lines = 0;
  while ((n = getline(&line, &cap, f)) > 0 && lines++ < 10000) {
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
      line[--n] = '\0';
    if (!n || starts_with(skip_terminal_escapes(line), SEQLINT_STATS_PREFIX))
      continue;
    if (strstr(line, "error:") || starts_with(line, "cannot ")) {
      result = xstrdup(line);
      break;
    }
    if (!first)
      first = xstrdup(line);
  }
  free(line);
  fclose(f);
  if (result) {
    free(first);
    return result;
  }
  return first;
}

/* Drops the flags a substituted clang rejected and reports whether the job
 * should run again. */
static int retry_without_unknown_args(job_t *j, const diag_summary *s, flag_filter *ff) {
  if (!j->substituted || j->retried || s->n_unknown_arg_errors == 0 ||
      s->n_unknown_arg_errors != s->n_errors)
    return 0;
  for (size_t i = 0; i < s->unknown_args.n; i++) {
    int created;
    void **slot = sm_slot(&ff->dropped, s->unknown_args.v[i], &created);
    *slot = (void *)1;
    if (created) {
      progress_clear();
      note_msg("dropping '%s' (not accepted by clang) from the compile commands",
               s->unknown_args.v[i]);
    }
  }
  strvec kept = {0};
  for (size_t i = 0; i < j->args.n; i++)
    if (i == 0 || !sm_get(&ff->dropped, j->args.v[i]))
      sv_push(&kept, j->args.v[i]);
  sv_free(&j->args);
  j->args = kept;
  j->retried = 1;
  return 1;
}

/* Returns 1 when the job must be spawned again. */
static int finish_job(job_t *j, int status, flag_filter *ff) {
  diag_summary s = {0};
  findvec found = {0};
  struct stat st;
  if (stat(j->dia_path, &st) == 0 && st.st_size > 0)
    read_diagnostics(j->dia_path, j->directory, &found, &s);
  else
    s.load_error = xstrdup("the compiler wrote no diagnostics file");

  int again = retry_without_unknown_args(j, &s, ff);
  if (!again) {
    char *why = NULL;
    if (WIFSIGNALED(status)) {
      int sig = WTERMSIG(status);
      why = xasprintf("the compiler was killed by signal %d (%s)%s%s", sig, strsignal(sig),
                      s.first_error ? ": " : "", s.first_error ? s.first_error : "");
    } else if (s.first_error) {
      why = xstrdup(s.first_error);
    } else if (WEXITSTATUS(status) != 0 && s.n_seqlint_errors == 0) {
      why = first_stderr_error(j->err_path);
      if (!why)
        why = xasprintf("the compiler exited with status %d", WEXITSTATUS(status));
    } else if (!s.loaded) {
      why = xasprintf("cannot read the compiler's diagnostics: %s", s.load_error);
    }
    if (why) {
      fv_free(&found);
      job_fail(j, why);
    } else {
      j->state = JOB_OK;
      j->findings = found;
      coverage_read_stderr(j->err_path, &j->coverage);
    }
  } else {
    fv_free(&found);
  }
  diag_summary_free(&s);
  remove_temp_files(j);
  return again;
}

void flag_filter_free(flag_filter *f) { sm_free(&f->dropped, NULL); }

/* ---- the run, on the pool ------------------------------------------------------ */

typedef struct {
  jobvec *jv;
  const char *tmpdir;
  flag_filter *flags;
  size_t next;     /* the next job of jv to look at */
  size_t started;  /* for the progress: first starts, not retries */
  size_t total;    /* the jobs pending at the start */
  job_t **retry;   /* failed on flags now dropped: start again first */
  size_t n_retry, cap_retry;
} run_ctx;

/* The command of a job: its arguments without the flags learnt to drop,
 * with the plugin's output files and the diagnostics file placed before a
 * "--" (or at the end). */
static void job_command(job_t *j, const run_ctx *r, pool_cmd *cmd) {
  free(j->dia_path);
  free(j->err_path);
  j->dia_path = xasprintf("%s/%zu.dia", r->tmpdir, j->rank);
  j->err_path = xasprintf("%s/%zu.err", r->tmpdir, j->rank);
  if (j->want_summary && !j->summary_path)
    /* named by rank: the join reads them in name order, the canonical one */
    j->summary_path = xasprintf("%s/%zu.mp.json", r->tmpdir, j->rank);
  if (j->want_summary && !j->counters_path)
    j->counters_path = xasprintf("%s/%zu.counters", r->tmpdir, j->rank);

  strvec *argv = &cmd->argv;
  int placed = 0;
  for (size_t i = 0; i < j->args.n; i++) {
    if (!placed && strcmp(j->args.v[i], "--") == 0) {
      push_plugin_files(j, argv);
      sv_push(argv, "--serialize-diagnostics");
      sv_push(argv, j->dia_path);
      placed = 1;
    }
    /* flags another file's compile showed clang to reject */
    if (j->substituted && i > 0 && sm_get(&r->flags->dropped, j->args.v[i]))
      continue;
    sv_push(argv, j->args.v[i]);
  }
  if (!placed) {
    push_plugin_files(j, argv);
    sv_push(argv, "--serialize-diagnostics");
    sv_push(argv, j->dia_path);
  }
  cmd->dir = j->directory;
  cmd->err_path = j->err_path;
}

static int next_job(void *ctx, pool_cmd *cmd, void **task) {
  run_ctx *r = ctx;
  job_t *j = NULL;
  if (r->n_retry) {
    j = r->retry[0];
    memmove(r->retry, r->retry + 1, --r->n_retry * sizeof *r->retry);
  }
  while (!j && r->next < r->jv->n) {
    job_t *c = r->jv->v[r->next++];
    if (c->state != JOB_PENDING)
      continue;
    j = c;
    progress_show(++r->started, r->total, j->display);
    progress_log(r->started, r->total);
  }
  if (!j)
    return 0;
  job_command(j, r, cmd);
  j->state = JOB_RUNNING;
  *task = j;
  return 1;
}

static void job_start_failed(void *ctx, void *task, char *why) {
  (void)ctx;
  job_fail(task, why);
}

static void job_finished(void *ctx, void *task, int status) {
  run_ctx *r = ctx;
  if (!finish_job(task, status, r->flags))
    return;
  /* a failure that taught flags to drop: once more without them */
  if (r->n_retry == r->cap_retry) {
    r->cap_retry = r->cap_retry ? 2 * r->cap_retry : 8;
    r->retry = xrealloc(r->retry, r->cap_retry * sizeof *r->retry);
  }
  r->retry[r->n_retry++] = task;
}

static void job_killed(void *ctx, void *task) {
  (void)ctx;
  remove_temp_files(task);
  job_fail(task, xstrdup("interrupted"));
}

int run_jobs(jobvec *jv, unsigned jobs, const char *tmpdir, flag_filter *flags) {
  run_ctx r = {jv, tmpdir, flags, 0, 0, 0, NULL, 0, 0};
  for (size_t i = 0; i < jv->n; i++)
    if (jv->v[i]->state == JOB_PENDING)
      r.total++;
  if (r.total == 0)
    return 0;

  g_progress = !g_quiet && isatty(STDERR_FILENO);
  g_log_start = now_seconds();
  g_log_last = g_log_start; /* the first line after one interval */
  static const pool_callbacks cb = {next_job, job_start_failed, job_finished, job_killed};
  int sig = tmpdir ? pool_run(jobs, &cb, &r) : -1;
  free(r.retry);
  const char *not_run = !tmpdir   ? "not run: no temporary directory"
                        : sig < 0 ? "not run: cannot open /dev/null"
                                  : "not run (interrupted)";
  for (size_t i = 0; i < jv->n; i++) {
    job_t *j = jv->v[i];
    if (j->state == JOB_PENDING || j->state == JOB_RUNNING)
      job_fail(j, xstrdup(not_run));
  }
  progress_clear();
  return sig > 0 ? sig : 0;
}
