/* seqlint codebase runner: shared types and interfaces.
 *
 * The runner talks to the plugin only through the compiler's command line and
 * the serialized diagnostics it writes (DESIGN.md, "Layout"): it compiles every
 * translation unit with -fplugin=seqlint.so -fsyntax-only --serialize-diagnostics,
 * reads the diagnostics back with libclang and keeps the ones tagged
 * "[seqlint-<check>]"; from the compiler's stderr it reads only the plugin's
 * "seqlint-stats:" line (-fplugin-arg-seqlint-stats, coverage.c). */
#ifndef SEQLINT_RUNNER_H
#define SEQLINT_RUNNER_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* ---- util.c ---------------------------------------------------------- */

extern const char *g_prog; /* "seqlint" */

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Messages on stderr, prefixed with "seqlint: error: " etc. */
void err_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void note_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

typedef struct {
  char **v;
  size_t n, cap;
} strvec;
void sv_push(strvec *sv, const char *s);     /* copies s */
void sv_push_own(strvec *sv, char *s);       /* takes ownership */
void sv_free(strvec *sv);
char **sv_argv(strvec *sv);                  /* NULL-terminated view */

/* String-keyed hash map; keys are copied, values are caller-owned. */
typedef struct {
  char **keys;
  void **vals;
  size_t cap, n;
} strmap;
void **sm_slot(strmap *m, const char *key, int *created); /* inserts */
void *sm_get(const strmap *m, const char *key);
void sm_free(strmap *m, void (*free_val)(void *));

int starts_with(const char *s, const char *prefix);
int ends_with(const char *s, const char *suffix);
const char *base_name(const char *path);
char *path_join(const char *dir, const char *name);
char *path_normalize(const char *abs); /* lexical: removes ".", "..", "//" */
/* Absolute, canonical (realpath when the file exists, lexical otherwise).
 * Names like "<built-in>" are returned unchanged. */
char *path_canonical(const char *dir, const char *name);
/* Relative to the current directory when inside it, else absolute. */
char *path_display(const char *canonical);
const char *cwd_path(void);

/* Output files that are never left half-written: a temporary file next to
 * the target, renamed over it by ao_close(ao, 1) (removed by ao_close(ao, 0)
 * or on any error). Devices and pipes are written in place. NULL/-1 with
 * errno set on failure. */
typedef struct {
  FILE *fp;
  char *path, *tmp;
} atomic_out;
FILE *ao_open(atomic_out *ao, const char *path);
int ao_close(atomic_out *ao, int commit);

/* ---- checks.c -------------------------------------------------------- */

typedef struct {
  const char *name;  /* without the "seqlint-" prefix */
  const char *short_desc;
  const char *full_desc;
} check_info;
extern const check_info g_checks[];
extern const size_t g_num_checks;
int check_index(const char *name); /* -1 when unknown */
char *check_camel_case(const char *name);

/* ---- findings.c ------------------------------------------------------ */

typedef struct {
  char *file; /* display path; "" when unknown */
  char *abs;  /* canonical path; "" when unknown */
  unsigned line, col;
} loc_t;

typedef struct {
  loc_t loc;
  char *message;
} note_t;

typedef struct {
  loc_t begin;                /* start of the replaced range */
  unsigned end_line, end_col; /* exclusive end, same file */
  char *replacement;
} fixit_t;

typedef struct {
  char *check; /* without the "seqlint-" prefix */
  loc_t loc;
  unsigned end_line, end_col; /* 0 when the diagnostic has no range */
  char *message;              /* without the trailing "[seqlint-<check>]" */
  int is_error;               /* clang level: error (else warning) */
  note_t *notes;
  size_t n_notes;
  fixit_t *fixits;
  size_t n_fixits;
  char *fingerprint; /* set by findings_finalize() */
} finding_t;

typedef struct {
  finding_t **v;
  size_t n, cap;
} findvec;

void loc_set(loc_t *l, const char *dir, const char *name, unsigned line, unsigned col);
void loc_free(loc_t *l);
void finding_free(finding_t *f);
void fv_push(findvec *fv, finding_t *f);
void fv_free(findvec *fv); /* frees the findings too */

/* Source text cache (the line of a finding, for fingerprints and snippets). */
const char *source_line(const char *abs, unsigned line, size_t *len);
void source_cache_free(void);
/* JSON string from arbitrary bytes (invalid UTF-8 replaced). */
struct json_t;
struct json_t *json_str(const char *s);

/* Moves the findings of `from` into `into` unless an identical finding
 * (check, file, line, column, message) is already there; `seen` remembers
 * what `into` holds. `from` is left empty. */
void findings_merge(findvec *into, strmap *seen, findvec *from);
/* Sorts (file, line, column, check, message) and computes fingerprints. */
void findings_finalize(findvec *fv);

/* Baseline: {"version":1,"findings":[{check,file,fingerprint}]} */
int baseline_load(const char *path, strmap *fingerprints); /* 0 ok */
int baseline_write(const char *path, const findvec *fv);   /* 0 ok */

/* ---- coverage.c ------------------------------------------------------ */

/* What the plugin recognised (-fplugin-arg-seqlint-stats prints one
 * "seqlint-stats: ..." line per translation unit on stderr; see
 * docs/integration.md, "Coverage"), summed over the lines read. */
typedef struct {
  unsigned long long functions, analysed;
  unsigned long long write_api, write_open, read_api, read_open;
  unsigned long long full, acq_rel, acquire, release, write, read, compiler;
  unsigned long long atomics, locks, mp_pairs;
  size_t lines;       /* statistics lines (translation units) */
  size_t protocol;    /* of them with protocol=yes */
  size_t no_protocol; /* with barriers or atomics and protocol=no */
} coverage_t;

#define SEQLINT_STATS_PREFIX "seqlint-stats:"

/* Adds a "seqlint-stats:" line to c; 0 when the line is not one. */
int coverage_parse_line(const char *line, coverage_t *c);
/* Adds the statistics lines of a compiler's stderr (the file at path). */
void coverage_read_stderr(const char *path, coverage_t *c);
void coverage_add(coverage_t *into, const coverage_t *from);
unsigned long long coverage_barriers(const coverage_t *c);

/* How the entries of compile_commands.json were used. */
typedef struct {
  char *path;          /* the database; NULL without -p */
  size_t entries;      /* in the database */
  size_t not_selected; /* files other than those named on the command line */
  size_t duplicates;   /* the same directory, file and analysis flags as an earlier entry */
  size_t not_c;        /* assembly sources */
} compdb_stats;

/* The coverage of a whole run, for the summary line, JSON and SARIF. */
typedef struct {
  coverage_t sum;           /* over the translation units analysed */
  size_t tus;               /* translation units analysed (compiled with the plugin) */
  size_t tus_no_stats;      /* ... that printed no statistics line */
  strvec no_protocol_files; /* with barriers or atomics but no protocol */
  const compdb_stats *db;   /* NULL without -p */
  size_t db_analysed, db_not_analysed; /* database entries */
} run_coverage;

struct json_t *coverage_json(const run_coverage *rc);
/* "; checked N TUs: ..." after the findings count, and with -p a second
 * line about the database's entries. */
void coverage_print_summary(FILE *out, const run_coverage *rc);

/* ---- compdb.c / jobs ------------------------------------------------- */

typedef enum { JOB_PENDING, JOB_RUNNING, JOB_OK, JOB_FAILED } job_state;

typedef struct {
  size_t index;    /* in the database (or command line) order: runs first */
  size_t rank;     /* in an order that does not depend on the database's
                      (main file, then arguments): summaries are named by
                      it and results are merged in it (canonical_order()) */
  char *display;   /* main file, for progress and messages */
  char *directory; /* where the compiler runs */
  strvec args;     /* compiler command, without the .dia output */
  int substituted; /* argv[0] replaced by the configured clang */
  int retried;
  job_state state;
  char *error; /* why the file could not be analysed */
  findvec findings;
  pid_t pid;
  char *dia_path, *err_path;
  int want_summary;   /* pass -fplugin-arg-seqlint-summary= (compile jobs) */
  char *summary_path; /* in the temporary directory, kept for the join */
  char *counters_path; /* the TU's counters and candidates (compile jobs) */
  char *known_path;    /* other TUs' counters, for the second round */
  int db_entry;       /* from an entry of compile_commands.json */
  coverage_t coverage; /* the plugin's statistics lines (JOB_OK) */
} job_t;

typedef struct {
  job_t **v;
  size_t n, cap;
} jobvec;

typedef struct {
  const char *plugin;     /* absolute */
  const char *checks;     /* NULL: plugin default */
  const char *config;     /* absolute or NULL */
  const char *clang;      /* compiler for file mode and substitution */
  strvec extra_args;      /* after "--" */
} cmd_options;

void jv_push(jobvec *jv, job_t *j);
/* Sets every job's rank: its place when the jobs are sorted by main file,
 * then by compile arguments. Findings, notes and fingerprints must not
 * depend on the order of compile_commands.json (bear -- make -j writes it in
 * completion order) or on -j. */
void canonical_order(jobvec *jv);
/* Sorts jv by rank. */
void sort_by_rank(jobvec *jv);
void job_free(job_t *j);
job_t *job_new(const char *display, const char *directory);
void job_fail(job_t *j, char *error); /* takes ownership */

/* Appends the jobs for the database in `dir` (all entries, or those of
 * `files`) and says in `st` how the entries were used (st->path is
 * allocated). Returns 0, or -1 after printing an error (database unusable). */
int compdb_jobs(const char *dir, char **files, size_t nfiles, const cmd_options *o, jobvec *out,
                compdb_stats *st);
/* Appends one job per file, compiled with o->extra_args. */
void file_jobs(char **files, size_t nfiles, const cmd_options *o, jobvec *out);
/* Rewrites a compile command for analysis: drops outputs, dependency files
 * and flags known to be rejected, appends the plugin flags. */
void build_analysis_args(const char *const *argv, size_t argc, const cmd_options *o,
                         int substituted, strvec *out);
/* Flags a substituted compiler rejected ("unknown argument"). */
extern strmap g_dropped_flags;
void compdb_cleanup(void); /* frees the caches above */

/* ---- exec.c ---------------------------------------------------------- */

/* A fresh directory under $TMPDIR for the compilers' diagnostics and
 * summaries; NULL after printing an error. */
char *make_temp_dir(void);
/* Runs every pending job, at most `jobs` at a time, with their temporary
 * files in tmpdir (NULL: every job fails). Returns 0, or the signal number
 * that interrupted the run. */
int run_jobs(jobvec *jv, unsigned jobs, const char *tmpdir);
/* Progress: on a terminal a line rewritten in place; otherwise a plain line
 * every `interval` seconds (negative: keep the default, 10 s; 0: every
 * file). quiet: neither. */
void set_progress(int quiet, double interval);
/* Runs argv in dir and returns its stdout (NULL on failure). */
char *capture_output(const char *const *argv, const char *dir);
/* Runs argv in dir and returns its stdout, and its stderr too when
 * with_stderr, whatever its exit status (stored in *status, a wait()
 * status); NULL when it could not be run. */
char *run_capture(const char *const *argv, const char *dir, int with_stderr, int *status);

/* ---- probe.c --------------------------------------------------------- */

/* Before any file is analysed: loads the plugin once into each compiler the
 * pending jobs use, on an empty input, with the run's check list and each
 * configuration file those jobs will read. A plugin that refuses them (a
 * check glob that matches no check, no check enabled, a malformed
 * .seqlint.yaml, a plugin built for another clang) would fail every file the
 * same way: that is printed once and the run stops. Returns 0, or -1 after
 * printing the error. */
int probe_plugin(const jobvec *jobs, const cmd_options *co);
/* --list-checks: the checks the plugin enables with --checks and the
 * configuration (--config, else the .seqlint.yaml above the current
 * directory), printed on stdout. 0, or -1 after printing the error. */
int list_checks(const cmd_options *co);

/* ---- diag.c ---------------------------------------------------------- */

typedef struct {
  int loaded;       /* the .dia file could be read */
  char *load_error; /* when !loaded */
  char *first_error;/* first compiler error (not a seqlint finding), formatted */
  size_t n_errors;
  size_t n_seqlint_errors;
  strvec unknown_args; /* "unknown argument: '-foo'" from the driver */
  size_t n_unknown_arg_errors;
} diag_summary;

void read_diagnostics(const char *dia_path, const char *dir, findvec *out, diag_summary *s);
void diag_summary_free(diag_summary *s);

/* ---- output.c -------------------------------------------------------- */

typedef enum { FMT_TEXT, FMT_JSON, FMT_SARIF } out_format;

/* Writes the findings; returns 0 or -1 (errno set by the failing call). */
int write_text(FILE *out, const findvec *fv);
int write_json(FILE *out, const findvec *fv, const run_coverage *cov);
int write_sarif(FILE *out, const findvec *fv, const jobvec *jv, const run_coverage *cov);

#endif
