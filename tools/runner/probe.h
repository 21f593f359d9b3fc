/* seqlint runner: one trial load of the plugin before the run, and
 * --list-checks. */
#ifndef SEQLINT_PROBE_H
#define SEQLINT_PROBE_H

#include "args.h"
#include "job.h"

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

#endif
