/* seqlint runner: the command line (options.h). */
#include "options.h"

#include "shard.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifndef SEQLINT_VERSION
#define SEQLINT_VERSION "0.0.0"
#endif
#ifndef SEQLINT_CLANG
#define SEQLINT_CLANG ""
#endif
#ifndef SEQLINT_LLVM_MAJOR
#define SEQLINT_LLVM_MAJOR 19
#endif

static void usage(FILE *out) {
  fprintf(out,
          "Usage: seqlint [options] <file>... [-- <compiler flags>]\n"
          "       seqlint -p <build dir> [options] [<file>...] [-- <extra compiler flags>]\n"
          "       seqlint -p <build dir> --shard=K/N -o <shard file> [options]\n"
          "       seqlint merge [output options] <shard file>...\n"
          "\n"
          "Runs the seqlint compiler plugin over a code base and reports its findings.\n"
          "\n"
          "Options:\n"
          "  -p <dir>                 analyse the entries of <dir>/compile_commands.json\n"
          "                           (all of them, or those of the given files)\n"
          "  -j, --jobs <n>           run <n> compilers at a time (default: online CPUs)\n"
          "  --checks=<globs>         checks to run, as a clang-tidy glob list\n"
          "                           (passed to the plugin as -fplugin-arg-seqlint-checks)\n"
          "  --config=<file>          configuration file instead of the .seqlint.yaml lookup\n"
          "  --format=<format>        text (default), json, sarif, html or gitlab\n"
          "  -o, --output <file>      write the findings to <file> (default: standard output);\n"
          "                           with --format=html, the report directory (required)\n"
          "  --baseline=<file>        do not report the findings recorded in <file>\n"
          "  --write-baseline=<file>  record all current findings in <file>\n"
          "  --plugin=<path>          the plugin (default: $SEQLINT_PLUGIN, else\n"
          "                           <dir of seqlint>/" SEQLINT_PLUGIN_RELPATH "\n"
          "                           when installed, <dir of seqlint>/" SEQLINT_PLUGIN_BUILD_RELPATH "\n"
          "                           in a build tree)\n"
          "  --source-root=<dir>      SARIF: %%SRCROOT%% and the base of relative file\n"
          "                           URIs (default: the current directory)\n"
          "  --help-uri-base=<url>    SARIF: rules' helpUri is <url><check>.md\n"
          "  --shard=K/N              analyse the K-th of N parts of the files (split by\n"
          "                           a hash of their path) and save their state in the\n"
          "                           -o file; 'seqlint merge' joins the N shards into\n"
          "                           one report, as one run would give\n"
          "  --all-configurations     with -p, analyse every configuration of a file (its\n"
          "                           entries with other flags: -D, -I, ...), not only the\n"
          "                           first by its flags; a finding of some of them only\n"
          "                           has a note naming the flags of those that have it\n"
          "  --include=<glob>         analyse only the files whose path matches <glob>\n"
          "                           ('*' matches '/' too; repeatable)\n"
          "  --exclude=<glob>         do not analyse the files whose path matches <glob>\n"
          "                           (repeatable; applied after --include)\n"
          "  --list-checks            list the checks that --checks and .seqlint.yaml\n"
          "                           enable, and exit\n"
          "  -q, --quiet              no progress output\n"
          "  --progress-interval=<s>  when stderr is not a terminal, a progress line\n"
          "                           every <s> seconds (default 10; 0: every file)\n"
          "  -h, --help               show this help\n"
          "  --version                show the version\n"
          "\n"
          "Without -p, each file is compiled with the flags after \"--\" by $SEQLINT_CLANG,\n"
          "else by %s.\n"
          "With -p, flags after \"--\" are appended to every compile command.\n"
          "\n"
          "Exit status: 0 no findings, 1 findings, 2 usage error or a file that could not\n"
          "be analysed.\n",
          SEQLINT_CLANG[0] ? SEQLINT_CLANG : "clang");
}

static void usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "%s: error: ", g_prog);
  fprintf(stderr, fmt, arg);
  fputs("\n\n", stderr);
  usage(stderr);
}

/* Matches "-x VALUE", "-xVALUE" (short) or "--name=VALUE", "--name VALUE"
 * (long). Returns 1 and sets *val on a match, -1 when the value is missing. */
static int opt_value(char **argv, int argc, int *i, const char *name, const char **val) {
  const char *a = argv[*i];
  size_t n = strlen(name);
  if (strncmp(a, name, n) != 0)
    return 0;
  int is_short = name[1] != '-';
  if (a[n] == '\0') {
    if (*i + 1 >= argc)
      return -1;
    *val = argv[++*i];
    return 1;
  }
  if (a[n] == '=') {
    *val = a + n + 1;
    return 1;
  }
  if (is_short) {
    *val = a + n;
    return 1;
  }
  return 0;
}

/* Sets the option `id` (see parse_options()) to `v`: 0, or 2 after a usage
 * error. */
static int set_option(options *o, int id, const char *v) {
  switch (id) {
  case 'c': o->checks = v; break;
  case 'C': o->config = v; break;
  case 'o': o->output = v; break;
  case 'b': o->baseline = v; break;
  case 'w': o->write_baseline = v; break;
  case 'P': o->plugin = v; break;
  case 'p': o->build_dir = v; break;
  case 'I': sv_push(&o->include, v); break;
  case 'R': o->source_root = v; break;
  case 'U': o->help_uri_base = v; break;
  case 'X': sv_push(&o->exclude, v); break;
  case 'S':
    if (shard_parse(v, &o->shard_k, &o->shard_n) != 0) {
      usage_error("invalid shard '%s' (expected K/N with 1 <= K <= N, e.g. 2/3)", v);
      return 2;
    }
    o->shard = v;
    break;
  case 'T': {
    char *end = NULL;
    errno = 0;
    double t = strtod(v, &end);
    if (*end || errno || !(t >= 0) || t > 86400) {
      usage_error("invalid progress interval '%s' (expected seconds, 0 to 86400)", v);
      return 2;
    }
    o->progress_interval = t;
    break;
  }
  case 'f':
    if (strcmp(v, "text") == 0)
      o->format = FMT_TEXT;
    else if (strcmp(v, "json") == 0)
      o->format = FMT_JSON;
    else if (strcmp(v, "sarif") == 0)
      o->format = FMT_SARIF;
    else if (strcmp(v, "html") == 0)
      o->format = FMT_HTML;
    else if (strcmp(v, "gitlab") == 0)
      o->format = FMT_GITLAB;
    else {
      usage_error("unknown format '%s' (expected text, json, sarif, html or gitlab)", v);
      return 2;
    }
    break;
  case 'j': {
    char *end = NULL;
    errno = 0;
    unsigned long n = strtoul(v, &end, 10);
    if (!v[0] || *end || errno || v[0] == '-' || v[0] == '+' || n < 1 || n > 4096) {
      usage_error("invalid number of jobs '%s' (expected 1 to 4096)", v);
      return 2;
    }
    o->jobs = (unsigned)n;
    break;
  }
  }
  return 0;
}

/* What one option asks of the others: 0, or 2 after a usage error. */
static int check_options(options *o) {
  if (o->format == FMT_HTML && !o->list_checks && (!o->output || strcmp(o->output, "-") == 0)) {
    usage_error("%s", "--format=html writes a directory: give it with -o <dir>");
    return 2;
  }
  if (o->merge) {
    const char *bad = o->build_dir ? "-p" : o->shard ? "--shard" : o->checks ? "--checks"
                      : o->config ? "--config" : o->include.n ? "--include"
                      : o->exclude.n ? "--exclude" : o->have_dashdash ? "--"
                      : o->all_configurations ? "--all-configurations" : NULL;
    if (bad) {
      usage_error("'seqlint merge' takes no %s: the shards carry their database, checks "
                  "and configuration",
                  bad);
      return 2;
    }
    if (!o->files.n) {
      usage_error("%s", "'seqlint merge' needs the shard files (seqlint --shard=K/N -o FILE)");
      return 2;
    }
    return 0;
  }
  if (o->all_configurations && !o->build_dir) {
    usage_error("%s", "--all-configurations needs -p: the configurations of a file are the "
                      "entries of compile_commands.json that compile it");
    return 2;
  }
  if (o->shard) {
    if (!o->output || strcmp(o->output, "-") == 0) {
      usage_error("%s", "--shard needs -o FILE: the shard's state, for 'seqlint merge'");
      return 2;
    }
    const char *bad = o->baseline ? "--baseline" : o->write_baseline ? "--write-baseline"
                      : o->format != FMT_TEXT ? "--format" : NULL;
    if (bad) {
      usage_error("%s belongs to 'seqlint merge', which writes the report", bad);
      return 2;
    }
  }
  if (!o->build_dir && o->files.n == 0 && !o->list_checks) {
    usage_error("%s", "no input files (give files, or -p <build dir>)");
    return 2;
  }
  return 0;
}

/* 0 ok, 1 exit 0 (help/version), 2 usage error */
int parse_options(int argc, char **argv, options *o) {
  int first = 1;
  if (argc > 1 && strcmp(argv[1], "merge") == 0) {
    o->merge = 1;
    first = 2;
  }
  for (int i = first; i < argc; i++) {
    const char *a = argv[i], *v = NULL;
    if (strcmp(a, "--") == 0) {
      o->have_dashdash = 1;
      for (int k = i + 1; k < argc; k++)
        sv_push(&o->extra, argv[k]);
      break;
    }
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 1;
    }
    if (strcmp(a, "--version") == 0) {
      printf("seqlint %s (LLVM %d)\n", SEQLINT_VERSION, SEQLINT_LLVM_MAJOR);
      return 1;
    }
    if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
      o->quiet = 1;
      continue;
    }
    if (strcmp(a, "--list-checks") == 0) {
      o->list_checks = 1;
      continue;
    }
    if (strcmp(a, "--all-configurations") == 0) {
      o->all_configurations = 1;
      continue;
    }
    if (a[0] != '-' || a[1] == '\0') {
      sv_push(&o->files, a);
      continue;
    }
    static const struct {
      const char *name;
      int id;
    } opts[] = {{"--checks", 'c'},        {"--config", 'C'},
                {"--format", 'f'},        {"--output", 'o'},
                {"--baseline", 'b'},      {"--write-baseline", 'w'},
                {"--plugin", 'P'},        {"--jobs", 'j'},
                {"-j", 'j'},              {"-p", 'p'},
                {"-o", 'o'},              {"--include", 'I'},
                {"--exclude", 'X'},       {"--progress-interval", 'T'},
                {"--source-root", 'R'},   {"--sarif-root", 'R'},
                {"--help-uri-base", 'U'}, {"--shard", 'S'}};
    int id = 0, r = 0;
    for (size_t k = 0; k < sizeof opts / sizeof *opts && !id; k++) {
      r = opt_value(argv, argc, &i, opts[k].name, &v);
      if (r < 0) {
        usage_error("option '%s' needs a value", opts[k].name);
        return 2;
      }
      if (r > 0)
        id = opts[k].id;
    }
    if (!id) {
      usage_error("unknown option '%s'", a);
      return 2;
    }
    if (!v[0] && id != 'j') {
      usage_error("option '%s' needs a non-empty value", a);
      return 2;
    }
    if (set_option(o, id, v) != 0)
      return 2;
  }
  return check_options(o);
}


void options_free(options *o) {
  sv_free(&o->files);
  sv_free(&o->extra);
  sv_free(&o->include);
  sv_free(&o->exclude);
}
