/* seqlint runner: child processes — the parallel pool (pool.h) and the
 * capture of one command's output. */
#define _GNU_SOURCE /* posix_spawn_file_actions_addchdir_np (glibc 2.29) */
#include "pool.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t wait_child(pid_t pid, int *status) {
  for (;;) {
    pid_t r = waitpid(pid, status, 0);
    if (r >= 0 || errno != EINTR)
      return r;
  }
}

/* ---- the pool ---------------------------------------------------------------- */

/* Starts cmd; 0 and *pid, or -1 and *why. posix_spawn, not fork: the runner
 * maps libclang and LLVM, and copying its page tables for every compile
 * costs milliseconds (glibc spawns with CLONE_VM|CLONE_VFORK). */
static int start(pool_cmd *cmd, int devnull, pid_t *pid, char **why) {
  int errfd = open(cmd->err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (errfd < 0) {
    *why = xasprintf("cannot create '%s': %s", cmd->err_path, strerror(errno));
    return -1;
  }
  posix_spawnattr_t attr;
  posix_spawn_file_actions_t fa;
  posix_spawnattr_init(&attr);
  posix_spawn_file_actions_init(&fa);
  sigset_t none, deflt;
  sigemptyset(&none);
  sigemptyset(&deflt);
  sigaddset(&deflt, SIGPIPE); /* the runner ignores it; the child must not */
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
  if (cmd->dir)
    posix_spawn_file_actions_addchdir_np(&fa, cmd->dir);
  extern char **environ;
  int rc = posix_spawnp(pid, cmd->argv.v[0], &fa, &attr, sv_argv(&cmd->argv), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  close(errfd);
  if (rc == 0)
    return 0;
  struct stat st;
  int dir_err = !cmd->dir                    ? 0
                : stat(cmd->dir, &st) != 0 ? errno
                : !S_ISDIR(st.st_mode)     ? ENOTDIR
                                           : 0;
  if (dir_err)
    *why = xasprintf("cannot enter directory '%s': %s", cmd->dir, strerror(dir_err));
  else
    *why = xasprintf("cannot run '%s': %s", cmd->argv.v[0], strerror(rc));
  return -1;
}

typedef struct {
  pid_t pid;
  void *task;
} slot_t;

typedef struct {
  const pool_callbacks *cb;
  void *ctx;
  unsigned max;
  int devnull;
  slot_t *slots; /* the running tasks, in the order they started */
  size_t running;
} pool_t;

/* Starts tasks while a slot is free and next_task() gives one. */
static void fill(pool_t *p) {
  while (p->running < p->max) {
    pool_cmd cmd = {0};
    void *task = NULL;
    if (!p->cb->next_task(p->ctx, &cmd, &task)) {
      sv_free(&cmd.argv);
      return;
    }
    pid_t pid;
    char *why = NULL;
    if (start(&cmd, p->devnull, &pid, &why) == 0) {
      p->slots[p->running].pid = pid;
      p->slots[p->running].task = task;
      p->running++;
    } else {
      p->cb->start_failed(p->ctx, task, why);
    }
    sv_free(&cmd.argv);
  }
}

/* The task of a child that ended, removed from the slots; NULL when the
 * child is not the pool's. */
static void *take_slot(pool_t *p, pid_t pid) {
  for (size_t i = 0; i < p->running; i++) {
    if (p->slots[i].pid != pid)
      continue;
    void *task = p->slots[i].task;
    memmove(p->slots + i, p->slots + i + 1, (p->running - i - 1) * sizeof *p->slots);
    p->running--;
    return task;
  }
  return NULL;
}

static int pending_termination(void) {
  sigset_t pending;
  if (sigpending(&pending) != 0 ||
      !(sigismember(&pending, SIGINT) || sigismember(&pending, SIGTERM) ||
        sigismember(&pending, SIGHUP)))
    return 0;
  sigset_t term;
  sigemptyset(&term);
  sigaddset(&term, SIGINT);
  sigaddset(&term, SIGTERM);
  sigaddset(&term, SIGHUP);
  int sig = sigwaitinfo(&term, NULL);
  return sig > 0 ? sig : 0;
}

/* The loop: starts, reaps and reports until nothing is left or a
 * termination signal arrives (returned). */
static int run_loop(pool_t *p, const sigset_t *waited) {
  void *finished = NULL; /* a clean exit, reported after the refill */
  int finished_status = 0, sig = 0;
  for (;;) {
    if ((sig = pending_termination()) != 0)
      break;
    fill(p);
    if (finished) {
      p->cb->task_finished(p->ctx, finished, finished_status);
      finished = NULL;
      if (p->running == 0)
        continue; /* the report may have made a task */
    }
    if (p->running == 0)
      break;
    int status;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid == 0) {
      int got = sigwaitinfo(waited, NULL);
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
    void *task = take_slot(p, pid);
    if (!task)
      continue; /* not ours */
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      finished = task;
      finished_status = status;
    } else {
      p->cb->task_finished(p->ctx, task, status);
    }
  }
  if (finished) /* interrupted right after a task ended */
    p->cb->task_finished(p->ctx, finished, finished_status);
  return sig;
}

int pool_run(unsigned max, const pool_callbacks *cb, void *ctx) {
  pool_t p = {cb, ctx, max ? max : 1, -1, NULL, 0};
  p.devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (p.devnull < 0) {
    err_msg("cannot open /dev/null: %s", strerror(errno));
    return -1;
  }
  p.slots = xcalloc(p.max, sizeof *p.slots);

  /* The termination signals and SIGCHLD stay blocked while tasks run and
   * are taken with sigwaitinfo(): no handler, no race between checking for
   * an interruption and waiting for a child. */
  sigset_t waited, old_mask;
  sigemptyset(&waited);
  sigaddset(&waited, SIGCHLD);
  sigaddset(&waited, SIGINT);
  sigaddset(&waited, SIGTERM);
  sigaddset(&waited, SIGHUP);
  sigprocmask(SIG_BLOCK, &waited, &old_mask);

  int sig = run_loop(&p, &waited);

  for (size_t i = 0; i < p.running; i++) {
    pid_t pid = p.slots[i].pid;
    if (kill(-pid, SIGTERM) != 0)
      kill(pid, SIGTERM);
    int status;
    wait_child(pid, &status);
    cb->task_killed(ctx, p.slots[i].task);
  }
  free(p.slots);
  sigprocmask(SIG_SETMASK, &old_mask, NULL);
  close(p.devnull);
  return sig;
}

/* ---- one command, its output captured ----------------------------------------- */

static void child_setup(int in, int out, int err, const char *dir) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = SIG_DFL;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGPIPE, &sa, NULL); /* the runner ignores it; the child must not */
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
