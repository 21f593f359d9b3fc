/* seqlint runner: what the plugin recognised, and how the entries of the
 * compilation database were used, for the summary line, JSON and SARIF. */
#ifndef SEQLINT_COVERAGE_H
#define SEQLINT_COVERAGE_H

#include "util.h"

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

/* line past the terminal escape sequences at its start (ESC [ ... letter):
 * a compiler told -fdiagnostics-color=always (meson's default) resets the
 * colour at the start of the line after its last diagnostic. */
const char *skip_terminal_escapes(const char *line);
/* Adds a "seqlint-stats:" line to c (after any terminal escapes); 0 when
 * the line is not one. */
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
  size_t other_configs; /* another configuration (other flags) of a file analysed in one */
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

struct json_t;
struct json_t *coverage_json(const run_coverage *rc);
/* "; checked N TUs: ..." after the findings count, and with -p a second
 * line about the database's entries. */
void coverage_print_summary(FILE *out, const run_coverage *rc);

#endif
