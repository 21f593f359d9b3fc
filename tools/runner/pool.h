/* seqlint runner: every child process the runner starts.
 *
 * pool_run() runs tasks in parallel, in the shape of git's
 * run_processes_parallel(): the caller says what the next task is, and hears
 * when one could not start and when one finished; the pool spawns, waits,
 * reaps and handles interruption. The runner stays single-threaded: the
 * children are its only concurrency. run_capture() runs one command and
 * returns what it printed. */
#ifndef SEQLINT_POOL_H
#define SEQLINT_POOL_H

#include "util.h"

/* One child: argv[0] is looked up on PATH; stdin and stdout are /dev/null,
 * stderr goes to err_path (created or truncated). The child gets its own
 * process group (an interruption stops it and whatever it started: wrappers,
 * cc1), default signal handling and an empty signal mask. */
typedef struct {
  strvec argv;          /* the pool frees it once the child is started */
  const char *dir;      /* where it runs; NULL: the runner's directory */
  const char *err_path; /* the task's, kept until it finishes */
} pool_cmd;

typedef struct {
  /* Fills *cmd for the next task to start and sets *task (the caller's
   * handle): 1, or 0 when there is none to start now. Called whenever a
   * slot is free, so a task that finished may make one (a retry). */
  int (*next_task)(void *ctx, pool_cmd *cmd, void **task);
  /* The task could not start; `why` (owned by the callee) says why, e.g.
   * "cannot run 'clang': No such file or directory". */
  void (*start_failed)(void *ctx, void *task, char *why);
  /* The task's process ended; status as from waitpid(). A clean exit is
   * reported after the freed slot has been refilled, so the caller's work
   * on the result overlaps the next child; a failure right away, before
   * any other start (what it teaches may change the next command). */
  void (*task_finished)(void *ctx, void *task, int status);
  /* The run was interrupted: the task's process (group) was stopped. */
  void (*task_killed)(void *ctx, void *task);
} pool_callbacks;

/* Runs the tasks next_task() gives, at most `max` at a time, until it gives
 * none and none is running. SIGINT, SIGTERM and SIGHUP stop the run: the
 * running tasks are killed (task_killed) and no other starts. Returns 0,
 * the signal that interrupted the run, or -1 when no child could be
 * started at all (printed; no callback called). */
int pool_run(unsigned max, const pool_callbacks *cb, void *ctx);

/* Runs argv in dir (NULL: here) and returns its stdout, and its stderr too
 * when with_stderr, whatever its exit status (stored in *status, a wait()
 * status); NULL when it could not be run. */
char *run_capture(const char *const *argv, const char *dir, int with_stderr, int *status);
/* Runs argv in dir and returns its stdout; NULL when it could not be run or
 * did not exit with status 0. */
char *capture_output(const char *const *argv, const char *dir);

#endif
