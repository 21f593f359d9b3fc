/* seqlint runner: the check catalogue (DESIGN.md, "Check catalogue"), for the
 * SARIF rules table. Names are fixed; keep in sync with checkers/. */
#include "runner.h"

#include <ctype.h>
#include <string.h>

const check_info g_checks[] = {
    {"seqcount-write-missing-barrier",
     "Open-coded seqcount writer without a write barrier around the data stores.",
     "An open-coded seqcount writer has no write barrier or release between the odd "
     "increment of the counter and the data stores, or between the data stores and a "
     "plain even increment: readers can see new data with an even count."},
    {"seqcount-write-unbalanced",
     "Seqcount write section left open, ended without a begin, or begun twice.",
     "A path leaves a seqcount write section open (early return, goto), ends a section "
     "that was never begun, or begins a section that is already open."},
    {"seqcount-write-unlocked",
     "Seqcount write sections that two writers can run at once.",
     "Write sections of a plain seqcount_t or an open-coded counter are reachable from "
     "two or more concurrent entry points with no common lock, or a seqcount_LOCKNAME_t "
     "is written without its associated lock."},
    {"seqcount-read-missing-barrier",
     "Open-coded seqcount reader without a read barrier.",
     "An open-coded seqcount reader has no acquire or read barrier after the first "
     "counter load, or no read barrier before the recheck of the counter."},
    {"seqcount-read-no-retry",
     "Seqcount read begin never validated by a retry, or retry result ignored.",
     "A value returned by a read begin is never validated by a retry (and does not "
     "escape to a caller), or the result of a retry is ignored."},
    {"seqcount-read-odd-unchecked",
     "Open-coded seqcount reader that accepts an odd count.",
     "An open-coded seqcount reader neither masks the low bit of the count, checks it, "
     "nor waits for an even count: it can read data while a write is in progress."},
    {"seqcount-read-side-effect",
     "Side effect inside a seqcount read section.",
     "A store to shared memory, a read-modify-write of a non-local, or a call with side "
     "effects inside a seqcount read section: it repeats on every retry and acts on "
     "torn data."},
    {"access-plain-shared",
     "Plain write to data shared without a lock.",
     "Data written with WRITE_ONCE/atomics, or read or written inside a seqcount section "
     "elsewhere in the file, is stored or updated plainly here, outside any lock or write "
     "section (seqcount data: any store outside a write section). Use WRITE_ONCE, a write "
     "section, or data_race() for an intentional race."},
    {"access-plain-in-read-section",
     "Plain load of concurrently written data inside a C11 read section.",
     "In C11 code, plain loads of concurrently written data inside a seqcount read "
     "section are data races (undefined behaviour); use relaxed atomic loads."},
    {"access-plain-reread",
     "Checked value re-read with a plain load.",
     "A location loaded with READ_ONCE or acquire and checked is re-read plainly in the "
     "same function: the second load can see a different value."},
    {"barrier-wrong-kind",
     "Barrier of the wrong kind for the accesses it must order.",
     "smp_wmb where loads must be ordered, smp_rmb where stores must be, a partial "
     "barrier where store-to-load order is needed, smp_mb__before/after_atomic() not "
     "next to an atomic read-modify-write, or a fence of the wrong direction."},
    {"barrier-misplaced",
     "Barrier that orders nothing it is meant to.",
     "A barrier is placed where it orders none of the accesses it is meant to order, "
     "such as a read barrier before both loads of a pair or a write barrier after the "
     "publishing store."},
    {"barrier-unpaired",
     "Write-side barrier without a read-side counterpart (or the reverse).",
     "A write-side barrier or release whose data is read in another function of the "
     "same translation unit with no read-side barrier, acquire or dependency, or the "
     "reverse; or a pairing comment (\"pairs with smp_rmb() in foo()\") naming a "
     "function of the file that has no barrier that could pair."},
    {"mp-missing-barrier",
     "Message passing without the barriers it needs.",
     "Data stores followed by a flag or pointer publication with no write barrier or "
     "release, or a flag load followed by data loads with no read barrier, acquire or "
     "address dependency, where neither side of the pair orders the shared data."},
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
