/* seqlint runner: run the analysis commands, N at a time (fork/exec, one
 * process per translation unit; the runner itself stays single-threaded),
 * show progress on a terminal and collect each command's findings. */
#define _GNU_SOURCE /* posix_spawn_file_actions_addchdir_np (glibc 2.29) */
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
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

/* ---- child processes -------------------------------------------------------- */

static void child_setup(int in, int out, int err, const char *dir) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = SIG_DFL;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGPIPE, &sa, NULL); /* the runner ignores it; the compiler must not */
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  if (dup2(in, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0)
    _exit(127);
  if (dir && chdir(dir) != 0) {
    dprintf(STDERR_FILENO, "cannot enter directory '%s': %s\n", dir, strerror(errno));
    _exit(127);
  }
}

static pid_t wait_child(pid_t pid, int *status) {
  for (;;) {
    pid_t r = waitpid(pid, status, 0);
    if (r >= 0 || errno != EINTR)
      return r;
  }
}

char *run_capture(const char *const *argv, const char *dir, int with_stderr, int *status) {
  int fds[2];
  *status = -1;
  if (pipe(fds) != 0)
    return NULL;
  int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (devnull < 0) {
    close(fds[0]);
    close(fds[1]);
    return NULL;
  }
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    child_setup(devnull, fds[1], with_stderr ? fds[1] : devnull, dir);
    execvp(argv[0], (char *const *)argv);
    _exit(127);
  }
  close(fds[1]);
  close(devnull);
  if (pid < 0) {
    close(fds[0]);
    return NULL;
  }
  size_t len = 0, cap = 4096;
  char *buf = xmalloc(cap);
  for (;;) {
    if (len + 1 == cap)
      buf = xrealloc(buf, cap *= 2);
    ssize_t r = read(fds[0], buf + len, cap - 1 - len);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      break;
    len += (size_t)r;
  }
  buf[len] = '\0';
  close(fds[0]);
  if (wait_child(pid, status) < 0) {
    free(buf);
    return NULL;
  }
  return buf;
}

char *capture_output(const char *const *argv, const char *dir) {
  int status;
  char *out = run_capture(argv, dir, 0, &status);
  if (out && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
    free(out);
    return NULL;
  }
  return out;
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

static int spawn_job(job_t *j, const char *tmpdir, int devnull) {
  free(j->dia_path);
  free(j->err_path);
  j->dia_path = xasprintf("%s/%zu.dia", tmpdir, j->rank);
  j->err_path = xasprintf("%s/%zu.err", tmpdir, j->rank);
  if (j->want_summary && !j->summary_path)
    /* named by rank: the join reads them in name order, the canonical one */
    j->summary_path = xasprintf("%s/%zu.mp.json", tmpdir, j->rank);
  if (j->want_summary && !j->counters_path)
    j->counters_path = xasprintf("%s/%zu.counters", tmpdir, j->rank);

  strvec argv = {0};
  int placed = 0;
  for (size_t i = 0; i < j->args.n; i++) {
    if (!placed && strcmp(j->args.v[i], "--") == 0) {
      push_plugin_files(j, &argv);
      sv_push(&argv, "--serialize-diagnostics");
      sv_push(&argv, j->dia_path);
      placed = 1;
    }
    /* flags another file's compile showed clang to reject */
    if (j->substituted && i > 0 && sm_get(&g_dropped_flags, j->args.v[i]))
      continue;
    sv_push(&argv, j->args.v[i]);
  }
  if (!placed) {
    push_plugin_files(j, &argv);
    sv_push(&argv, "--serialize-diagnostics");
    sv_push(&argv, j->dia_path);
  }

  int errfd = open(j->err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (errfd < 0) {
    job_fail(j, xasprintf("cannot create '%s': %s", j->err_path, strerror(errno)));
    sv_free(&argv);
    return -1;
  }
  /* posix_spawn, not fork: the runner maps libclang and LLVM, and copying
   * its page tables for every compile costs milliseconds (glibc spawns with
   * CLONE_VM|CLONE_VFORK). The compiler gets its own process group, so that
   * an interrupted run can stop it and whatever it started (wrappers, cc1),
   * default signal handling and an empty signal mask. */
  posix_spawnattr_t attr;
  posix_spawn_file_actions_t fa;
  posix_spawnattr_init(&attr);
  posix_spawn_file_actions_init(&fa);
  sigset_t none, deflt;
  sigemptyset(&none);
  sigemptyset(&deflt);
  sigaddset(&deflt, SIGPIPE); /* the runner ignores it; the compiler must not */
  sigaddset(&deflt, SIGINT);
  sigaddset(&deflt, SIGTERM);
  sigaddset(&deflt, SIGHUP);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &deflt);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF |
                                      POSIX_SPAWN_SETPGROUP);
  posix_spawn_file_actions_adddup2(&fa, devnull, STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&fa, devnull, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&fa, errfd, STDERR_FILENO);
  if (j->directory)
    posix_spawn_file_actions_addchdir_np(&fa, j->directory);
  pid_t pid;
  extern char **environ;
  int rc = posix_spawnp(&pid, argv.v[0], &fa, &attr, argv.v, environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  close(errfd);
  if (rc != 0) {
    struct stat st;
    int dir_err = !j->directory              ? 0
                  : stat(j->directory, &st) != 0 ? errno
                  : !S_ISDIR(st.st_mode)     ? ENOTDIR
                                             : 0;
    if (dir_err)
      job_fail(j, xasprintf("cannot enter directory '%s': %s", j->directory,
                            strerror(dir_err)));
    else
      job_fail(j, xasprintf("cannot run '%s': %s", argv.v[0], strerror(rc)));
    sv_free(&argv);
    return -1;
  }
  sv_free(&argv);
  j->pid = pid;
  j->state = JOB_RUNNING;
  return 0;
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
    if (!n || starts_with(line, SEQLINT_STATS_PREFIX))
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
static int retry_without_unknown_args(job_t *j, const diag_summary *s) {
  if (!j->substituted || j->retried || s->n_unknown_arg_errors == 0 ||
      s->n_unknown_arg_errors != s->n_errors)
    return 0;
  for (size_t i = 0; i < s->unknown_args.n; i++) {
    int created;
    void **slot = sm_slot(&g_dropped_flags, s->unknown_args.v[i], &created);
    *slot = (void *)1;
    if (created) {
      progress_clear();
      note_msg("dropping '%s' (not accepted by clang) from the compile commands",
               s->unknown_args.v[i]);
    }
  }
  strvec kept = {0};
  for (size_t i = 0; i < j->args.n; i++)
    if (i == 0 || !sm_get(&g_dropped_flags, j->args.v[i]))
      sv_push(&kept, j->args.v[i]);
  sv_free(&j->args);
  j->args = kept;
  j->retried = 1;
  return 1;
}

/* Returns 1 when the job must be spawned again. */
static int finish_job(job_t *j, int status) {
  diag_summary s = {0};
  findvec found = {0};
  struct stat st;
  if (stat(j->dia_path, &st) == 0 && st.st_size > 0)
    read_diagnostics(j->dia_path, j->directory, &found, &s);
  else
    s.load_error = xstrdup("the compiler wrote no diagnostics file");

  int again = retry_without_unknown_args(j, &s);
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
  j->pid = -1;
  return again;
}

char *make_temp_dir(void) {
  const char *base = getenv("TMPDIR");
  if (!base || !base[0])
    base = "/tmp";
  char *tmpl = xasprintf("%s/seqlint-XXXXXX", base);
  if (!mkdtemp(tmpl)) {
    err_msg("cannot create a temporary directory in '%s': %s", base, strerror(errno));
    free(tmpl);
    return NULL;
  }
  return tmpl;
}

int run_jobs(jobvec *jv, unsigned jobs, const char *tmpdir) {
  size_t total = 0;
  for (size_t i = 0; i < jv->n; i++)
    if (jv->v[i]->state == JOB_PENDING)
      total++;
  if (total == 0)
    return 0;

  int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (!tmpdir || devnull < 0) {
    if (devnull < 0)
      err_msg("cannot open /dev/null: %s", strerror(errno));
    for (size_t i = 0; i < jv->n; i++)
      if (jv->v[i]->state == JOB_PENDING)
        job_fail(jv->v[i], xstrdup(tmpdir ? "not run: cannot open /dev/null"
                                          : "not run: no temporary directory"));
    if (devnull >= 0)
      close(devnull);
    return 0;
  }

  /* The termination signals and SIGCHLD stay blocked while jobs run and are
   * taken with sigwaitinfo(): no handler, no race between checking for an
   * interruption and waiting for a child. */
  sigset_t waited, old_mask;
  sigemptyset(&waited);
  sigaddset(&waited, SIGCHLD);
  sigaddset(&waited, SIGINT);
  sigaddset(&waited, SIGTERM);
  sigaddset(&waited, SIGHUP);
  sigprocmask(SIG_BLOCK, &waited, &old_mask);

  g_progress = !g_quiet && isatty(STDERR_FILENO);
  g_log_start = now_seconds();
  g_log_last = g_log_start; /* the first line after one interval */
  size_t next = 0, started = 0, running = 0;
  job_t *finished = NULL; /* reaped, diagnostics not read yet */
  int finished_status = 0;
  int sig = 0;
  for (;;) {
    sigset_t pending;
    if (sigpending(&pending) == 0 &&
        (sigismember(&pending, SIGINT) || sigismember(&pending, SIGTERM) ||
         sigismember(&pending, SIGHUP))) {
      sigset_t term;
      sigemptyset(&term);
      sigaddset(&term, SIGINT);
      sigaddset(&term, SIGTERM);
      sigaddset(&term, SIGHUP);
      sig = sigwaitinfo(&term, NULL);
      if (sig > 0)
        break;
      sig = 0;
    }
    /* The next compile starts before a successful one's diagnostics are
     * read (below): the runner's own work overlaps the compilers'. */
    while (running < jobs && next < jv->n) {
      job_t *j = jv->v[next++];
      if (j->state != JOB_PENDING)
        continue;
      progress_show(++started, total, j->display);
      progress_log(started, total);
      if (spawn_job(j, tmpdir, devnull) == 0)
        running++;
    }
    if (finished) {
      finish_job(finished, finished_status); /* exit 0: never a retry */
      finished = NULL;
    }
    if (running == 0)
      break;
    int status;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid == 0) {
      int got = sigwaitinfo(&waited, NULL);
      if (got == SIGINT || got == SIGTERM || got == SIGHUP) {
        sig = got;
        break;
      }
      continue; /* SIGCHLD (or EINTR): reap */
    }
    if (pid < 0) {
      if (errno == EINTR)
        continue;
      err_msg("waitpid: %s", strerror(errno));
      break;
    }
    job_t *j = NULL;
    for (size_t i = 0; i < jv->n && !j; i++)
      if (jv->v[i]->state == JOB_RUNNING && jv->v[i]->pid == pid)
        j = jv->v[i];
    if (!j)
      continue; /* not ours */
    running--;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      finished = j; /* read after the next compile has started */
      finished_status = status;
    } else if (finish_job(j, status) && spawn_job(j, tmpdir, devnull) == 0) {
      running++; /* a failure first: it may teach flags to drop (a retry) */
    }
  }
  if (finished) /* interrupted right after a compile ended */
    finish_job(finished, finished_status);

  for (size_t i = 0; i < jv->n; i++) {
    job_t *j = jv->v[i];
    if (j->state != JOB_RUNNING)
      continue;
    if (kill(-j->pid, SIGTERM) != 0)
      kill(j->pid, SIGTERM);
    int status;
    wait_child(j->pid, &status);
    remove_temp_files(j);
    job_fail(j, xstrdup("interrupted"));
  }
  for (size_t i = 0; i < jv->n; i++)
    if (jv->v[i]->state == JOB_PENDING)
      job_fail(jv->v[i], xstrdup("not run (interrupted)"));
  progress_clear();
  sigprocmask(SIG_SETMASK, &old_mask, NULL);
  close(devnull);
  return sig;
}
