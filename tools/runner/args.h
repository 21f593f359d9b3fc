/* seqlint runner: the analysis command — a compile command rewritten to
 * run the plugin (-fsyntax-only, outputs and dependency files dropped, the
 * plugin's flags appended) — and the options every such command shares. */
#ifndef SEQLINT_ARGS_H
#define SEQLINT_ARGS_H

#include "util.h"

typedef struct {
  const char *plugin;     /* absolute */
  const char *checks;     /* NULL: plugin default */
  const char *config;     /* absolute or NULL */
  const char *clang;      /* compiler for file mode and substitution */
  strvec extra_args;      /* after "--" */
} cmd_options;

/* Rewrites a compile command for analysis: drops outputs, dependency files
 * and -w, appends o->extra_args and the plugin flags. */
void build_analysis_args(const char *const *argv, size_t argc, const cmd_options *o,
                         int substituted, strvec *out);
/* Options whose next argument belongs to them and must not be interpreted
 * ("-Xclang", "-mllvm", ...). */
int takes_raw_next(const char *a);

#endif
