/* seqlint runner: the report as text (clang style), JSON, SARIF 2.1.0 or
 * GitLab Code Quality. */
#ifndef SEQLINT_OUTPUT_H
#define SEQLINT_OUTPUT_H

#include "coverage.h"
#include "findings.h"
#include "job.h"

typedef enum { FMT_TEXT, FMT_JSON, FMT_SARIF, FMT_HTML, FMT_GITLAB } out_format;

/* Writes the findings; returns 0 or -1 (errno set by the failing call). */
int write_text(FILE *out, const findvec *fv);
int write_json(FILE *out, const findvec *fv, const run_coverage *cov);
/* One finding as write_json() writes it; "fingerprint" only once set. */
struct json_t *finding_json(const finding_t *f);
int write_sarif(FILE *out, const findvec *fv, const jobvec *jv, const run_coverage *cov);
/* GitLab's Code Quality report (a subset of Code Climate's issue format):
 * what `artifacts: reports: codequality:` takes. */
int write_gitlab(FILE *out, const findvec *fv);
/* SARIF: %SRCROOT% is source_root (an existing directory; NULL: the current
 * directory) and artifact URIs are relative to it when inside it; helpUri is
 * help_uri_base + "<check>.md" (NULL: the build's default). */
void set_sarif_options(const char *source_root, const char *help_uri_base);
/* "Insert 'smp_wmb();'", "Replace with '...'", "Remove the code". */
char *fixit_description(const fixit_t *x);

#endif
