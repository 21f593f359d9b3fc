/* seqlint runner: the command line — the options, their parsing and
 * --help. */
#ifndef SEQLINT_OPTIONS_H
#define SEQLINT_OPTIONS_H

#include "output.h"
#include "util.h"

/* The installed plugin relative to the installed runner's directory
 * (CMake: bindir -> SEQLINT_INSTALL_PLUGINDIR/seqlint.so). */
#ifndef SEQLINT_PLUGIN_RELPATH
#define SEQLINT_PLUGIN_RELPATH "../lib/seqlint/seqlint.so"
#endif
/* The plugin relative to the runner in a build tree (build/bin, build/lib). */
#define SEQLINT_PLUGIN_BUILD_RELPATH "../lib/seqlint.so"

typedef struct {
  const char *build_dir;
  const char *checks, *config, *plugin;
  const char *output, *baseline, *write_baseline;
  const char *source_root, *help_uri_base;
  out_format format;
  unsigned jobs;
  int have_dashdash;
  int quiet, list_checks;
  int all_configurations;   /* every configuration of a file, not only its first */
  int merge;                /* seqlint merge SHARD... */
  const char *shard;        /* --shard=K/N */
  unsigned shard_k, shard_n;
  double progress_interval; /* -1: default */
  strvec files;
  strvec extra;
  strvec include, exclude; /* path globs */
} options;

/* Fills o from argv (o holds the defaults): 0 to go on, 1 to exit 0
 * (--help, --version: printed), 2 after a usage error (printed). */
int parse_options(int argc, char **argv, options *o);
void options_free(options *o);

#endif
