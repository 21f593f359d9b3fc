/* seqlint runner: the serialized diagnostics (.dia) a compile wrote, read
 * back with libclang; the "[seqlint-<check>]" ones become findings. */
#ifndef SEQLINT_DIAG_H
#define SEQLINT_DIAG_H

#include "findings.h"

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

#endif
