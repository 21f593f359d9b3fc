/* seqlint runner: the check catalogue, for the SARIF rules table. */
#include "checks.h"
#include "util.h"

#include <ctype.h>
#include <string.h>

/* checkers/Catalogue.def: the catalogue the plugin registers, with the
 * descriptions of the SARIF rules (their help is docs/checks/<name>.md). */
const check_info g_checks[] = {
#define SEQLINT_CHECK(name, factory, default_on, short_desc, full_desc)                      \
  {name, short_desc, full_desc},
#include "Catalogue.def"
};

const size_t g_num_checks = sizeof g_checks / sizeof g_checks[0];

int check_index(const char *name) {
  for (size_t i = 0; i < g_num_checks; i++)
    if (strcmp(g_checks[i].name, name) == 0)
      return (int)i;
  return -1;
}

char *check_camel_case(const char *name) {
  char *out = xmalloc(strlen(name) + 1);
  size_t o = 0;
  int upper = 1;
  for (const char *p = name; *p; p++) {
    if (*p == '-' || *p == '_') {
      upper = 1;
      continue;
    }
    out[o++] = upper ? (char)toupper((unsigned char)*p) : *p;
    upper = 0;
  }
  out[o] = '\0';
  return out;
}
