/* seqlint runner: the HTML report (--format=html -o DIR). */
#ifndef SEQLINT_HTML_H
#define SEQLINT_HTML_H

#include "coverage.h"
#include "findings.h"
#include "job.h"

/* --format=html -o DIR: DIR must be a directory that is empty or holds an
 * earlier report, or a new one in a writable directory. 0, or -1 after
 * printing the error. Checked before anything is analysed. */
int html_check_dir(const char *dir);
/* Writes the report into DIR (created if needed): index.html, one page per
 * finding, the assets. 0, or -1 after printing the error. */
int write_html(const char *dir, const findvec *fv, const jobvec *jv, const run_coverage *cov);

#endif
