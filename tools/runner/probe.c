/* seqlint runner: one trial load of the plugin before the run (probe.h,
 * probe_plugin). Without it a typo in --checks, a broken .seqlint.yaml or a
 * plugin of another LLVM major fails every translation unit of the
 * database, one error line per file, after compiling nothing useful. */
#include "probe.h"

#include "pool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The .seqlint.yaml the plugin reads for a file in `dir` when none is given:
 * the nearest one above it (core/Config.cpp, findConfig). "" for none.
 * Cached by directory in `cache`. */
static const char *config_for_dir(const char *dir, strmap *cache) {
  const char *hit = sm_get(cache, dir);
  if (hit)
    return hit;
  char *found = NULL;
  char *d = xstrdup(dir);
  for (;;) {
    char *candidate = path_join(d, ".seqlint.yaml");
    struct stat st;
    if (stat(candidate, &st) == 0) {
      found = candidate;
      break;
    }
    free(candidate);
    char *slash = strrchr(d, '/');
    if (!slash || slash == d)
      break;
    *slash = '\0';
  }
  if (!found) {
    char *candidate = xstrdup("/.seqlint.yaml");
    struct stat st;
    if (stat(candidate, &st) == 0)
      found = candidate;
    else
      free(candidate);
  }
  free(d);
  *sm_slot(cache, dir, NULL) = found ? found : xstrdup("");
  return sm_get(cache, dir);
}

/* The plugin's error lines in out ("error: seqlint: ..." or the plugin's
 * own version check), printed as the runner's errors; the count. */
static size_t print_plugin_errors(const char *out) {
  size_t n = 0;
  const char *line = out;
  while (*line) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    char *l = xstrndup(line, len);
    const char *e = strstr(l, "error: ");
    if (e && strstr(e, "seqlint")) {
      e += strlen("error: ");
      if (starts_with(e, "seqlint: "))
        e += strlen("seqlint: ");
      /* in the runner's words: --checks, --config */
      const char *flag = strstr(e, "-fplugin-arg-seqlint-");
      if (flag && (starts_with(flag + 21, "checks") || starts_with(flag + 21, "config")))
        err_msg("%.*s--%s", (int)(flag - e), e, flag + 21);
      else
        err_msg("%s", e);
      n++;
    }
    free(l);
    line += len + (end ? 1 : 0);
  }
  return n;
}

/* Runs `compiler` with the plugin, the run's checks, `config` ("" for none)
 * and `extra` (NULL for none) on an empty C file; its stdout and stderr, NULL
 * when it could not be run. */
static char *run_on_empty(const char *compiler, const cmd_options *co, const char *config,
                          const char *extra, int *status) {
  strvec argv = {0};
  sv_push(&argv, compiler);
  sv_push(&argv, "-fsyntax-only");
  sv_push(&argv, "-fno-crash-diagnostics");
  sv_push_own(&argv, xasprintf("-fplugin=%s", co->plugin));
  if (co->checks)
    sv_push_own(&argv, xasprintf("-fplugin-arg-seqlint-checks=%s", co->checks));
  if (config[0])
    sv_push_own(&argv, xasprintf("-fplugin-arg-seqlint-config=%s", config));
  if (extra)
    sv_push(&argv, extra);
  sv_push(&argv, "-x");
  sv_push(&argv, "c");
  sv_push(&argv, "/dev/null");
  char *out = run_capture((const char *const *)sv_argv(&argv), NULL, 1, status);
  sv_free(&argv);
  return out;
}

/* Loads the plugin into `compiler` with `config` ("" for none). */
static int probe_one(const char *compiler, const char *config, const cmd_options *co) {
  int status;
  char *out = run_on_empty(compiler, co, config, NULL, &status);
  if (!out)
    return 0; /* could not run it: each file says why */
  int rc = 0;
  if (WIFSIGNALED(status)) {
    /* Any compile of any file loads the plugin the same way. */
    err_msg("'%s' crashed (signal %d) loading the plugin '%s' on an empty file; is the "
            "plugin built for this clang? (seqlint was built for clang %d)",
            compiler, WTERMSIG(status), co->plugin, SEQLINT_LLVM_MAJOR);
    rc = -1;
  } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0 && print_plugin_errors(out)) {
    rc = -1;
  }
  /* Anything else (a compiler that rejects a flag, a wrapper script) is
   * left to the files themselves, which report it with their context. */
  free(out);
  return rc;
}

int probe_plugin(const jobvec *jobs, const cmd_options *co) {
  strmap seen = {0};   /* compiler "\n" config → 1 */
  strmap configs = {0};/* directory → config path or "" */
  int rc = 0;
  for (size_t i = 0; i < jobs->n && rc == 0; i++) {
    const job_t *j = jobs->v[i];
    if (j->state != JOB_PENDING || !j->args.n)
      continue;
    const char *config = co->config ? co->config : "";
    char *dir = NULL;
    if (!co->config) {
      char *abs = path_canonical(NULL, j->display); /* display: from the cwd */
      char *slash = strrchr(abs, '/');
      dir = slash && slash != abs ? xstrndup(abs, (size_t)(slash - abs)) : xstrdup("/");
      free(abs);
      config = config_for_dir(dir, &configs);
    }
    char *key = xasprintf("%s\n%s", j->args.v[0], config);
    int created = 0;
    sm_slot(&seen, key, &created);
    if (created)
      rc = probe_one(j->args.v[0], config, co);
    free(key);
    free(dir);
  }
  sm_free(&seen, NULL);
  sm_free(&configs, free);
  return rc;
}

int list_checks(const cmd_options *co) {
  strmap configs = {0};
  const char *config = co->config ? co->config : config_for_dir(cwd_path(), &configs);
  int status;
  char *out = run_on_empty(co->clang, co, config, "-fplugin-arg-seqlint-list-checks", &status);
  int rc = -1;
  if (!out) {
    err_msg("cannot run '%s': %s", co->clang, strerror(errno));
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && strstr(out, "Enabled checks:")) {
    fputs(strstr(out, "Enabled checks:"), stdout);
    rc = 0;
  } else if (!print_plugin_errors(out)) {
    err_msg("'%s' could not list the checks of the plugin '%s':\n%s", co->clang, co->plugin, out);
  }
  free(out);
  sm_free(&configs, free);
  return rc;
}
