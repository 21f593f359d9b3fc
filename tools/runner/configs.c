/* seqlint runner: the configurations of a file (configs.h). */
#include "configs.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* ---- one configuration a file -------------------------------------------------- */

static int is_config(const job_t *j) { return j->db_entry && j->state == JOB_PENDING; }

static int keep_chosen(const job_t *j, void *arg) {
  return !is_config(j) || sm_get(arg, j->display) == j;
}

size_t configs_select(jobvec *jobs) {
  strmap chosen = {0}; /* file → its first configuration */
  for (size_t i = 0; i < jobs->n; i++) {
    job_t *j = jobs->v[i];
    if (!is_config(j))
      continue;
    void **slot = sm_slot(&chosen, j->display, NULL);
    if (!*slot || job_cmp_command(j, *slot) < 0)
      *slot = j;
  }
  size_t dropped = chosen.n ? jv_retain(jobs, keep_chosen, &chosen) : 0;
  sm_free(&chosen, NULL);
  return dropped;
}

/* ---- findings of some configurations only ---------------------------------------- */

/* The analysed configurations of one file, in rank order. */
typedef struct {
  const job_t **v;
  size_t n;
  char **flags; /* each one's flags that some other configuration lacks */
} config_group;

static int has_arg(const job_t *j, const char *a) {
  for (size_t i = 0; i < j->args.n; i++)
    if (strcmp(j->args.v[i], a) == 0)
      return 1;
  return 0;
}

/* Does another configuration of g lack c's argument a? */
static int distinct_arg(const config_group *g, const job_t *c, const char *a) {
  for (size_t k = 0; k < g->n; k++)
    if (g->v[k] != c && !has_arg(g->v[k], a))
      return 1;
  return 0;
}

/* "-DLATENCY -O3": c's arguments that another configuration of g lacks, or
 * where it runs when the arguments are the same. */
static char *distinct_flags(const config_group *g, const job_t *c) {
  strvec parts = {0};
  for (size_t i = 0; i < c->args.n; i++)
    if (distinct_arg(g, c, c->args.v[i]))
      sv_push_own(&parts, xasprintf("'%s'", c->args.v[i]));
  if (!parts.n)
    return xasprintf("the command run in '%s'", c->directory);
  size_t len = 1;
  for (size_t i = 0; i < parts.n; i++)
    len += strlen(parts.v[i]) + 1;
  char *s = xcalloc(1, len);
  for (size_t i = 0; i < parts.n; i++) {
    if (i)
      strcat(s, " ");
    strcat(s, parts.v[i]);
  }
  sv_free(&parts);
  return s;
}

static void group_free(void *p) {
  config_group *g = p;
  for (size_t i = 0; g->flags && i < g->n; i++)
    free(g->flags[i]);
  free(g->flags);
  free(g->v);
  free(g);
}

static int found_by(const finding_t *f, const job_t *j) {
  for (size_t i = 0; i < f->n_found_in; i++)
    if (f->found_in[i] == j->rank)
      return 1;
  return 0;
}

/* "with 'a', with 'b'" for the configurations of g that did (found=1) or
 * did not report f. */
static char *config_list(const config_group *g, const finding_t *f, int found) {
  char *s = xstrdup("");
  for (size_t i = 0; i < g->n; i++) {
    if (found_by(f, g->v[i]) != found)
      continue;
    char *next = xasprintf("%s%swith %s", s, s[0] ? ", " : "", g->flags[i]);
    free(s);
    s = next;
  }
  return s;
}

/* c as the SARIF/JSON property lists it: the arguments no other
 * configuration of g has, and where it runs. */
static json_t *config_json(const config_group *g, const job_t *c) {
  json_t *args = json_array();
  for (size_t i = 0; i < c->args.n; i++)
    if (distinct_arg(g, c, c->args.v[i]))
      json_array_append_new(args, json_string(c->args.v[i]));
  return json_pack("{s:o, s:s}", "arguments", args, "directory", c->directory);
}

static void add_property(finding_t *f, const config_group *g) {
  json_t *yes = json_array(), *no = json_array();
  for (size_t i = 0; i < g->n; i++)
    json_array_append_new(found_by(f, g->v[i]) ? yes : no, config_json(g, g->v[i]));
  if (!f->configurations)
    f->configurations = json_array();
  json_array_append_new(f->configurations,
                        json_pack("{s:s, s:I, s:o, s:o}", "file", g->v[0]->display, "analysed",
                                  (json_int_t)g->n, "foundIn", yes, "notFoundIn", no));
}

static void add_note(finding_t *f, const config_group *g, size_t in) {
  add_property(f, g);
  char *yes = config_list(g, f, 1), *no = config_list(g, f, 0);
  f->notes = xrealloc(f->notes, (f->n_notes + 1) * sizeof *f->notes);
  note_t *n = &f->notes[f->n_notes++];
  n->loc = loc_dup(&f->loc);
  n->message = xasprintf("only in %zu of the %zu configurations of '%s' analysed: found %s; "
                         "not %s",
                         in, g->n, g->v[0]->display, yes, no);
  free(yes);
  free(no);
}

/* The groups of two or more analysed configurations, by file; by_rank[r]
 * is the group of the job of rank r (NULL: alone). */
static void make_groups(const jobvec *jobs, strmap *groups, config_group **by_rank, size_t n) {
  for (size_t i = 0; i < jobs->n; i++) {
    const job_t *j = jobs->v[i];
    if (j->state != JOB_OK || j->rank >= n)
      continue;
    int created;
    void **slot = sm_slot(groups, j->display, &created);
    if (created)
      *slot = xcalloc(1, sizeof(config_group));
    config_group *g = *slot;
    g->v = xrealloc(g->v, (g->n + 1) * sizeof *g->v);
    g->v[g->n++] = j;
    by_rank[j->rank] = g;
  }
  for (size_t i = 0; i < groups->cap; i++) {
    config_group *g = groups->keys && groups->keys[i] ? groups->vals[i] : NULL;
    if (!g || g->n < 2)
      continue;
    g->flags = xcalloc(g->n, sizeof *g->flags);
    for (size_t k = 0; k < g->n; k++)
      g->flags[k] = distinct_flags(g, g->v[k]);
  }
}

void configs_note(findvec *all, const jobvec *jobs) {
  size_t n = 0;
  for (size_t i = 0; i < jobs->n; i++)
    if (jobs->v[i]->rank + 1 > n)
      n = jobs->v[i]->rank + 1;
  config_group **by_rank = n ? xcalloc(n, sizeof *by_rank) : NULL;
  strmap groups = {0};
  make_groups(jobs, &groups, by_rank, n);
  for (size_t i = 0; i < all->n; i++) {
    finding_t *f = all->v[i];
    for (size_t k = 0; k < f->n_found_in; k++) {
      size_t r = f->found_in[k];
      config_group *g = r < n ? by_rank[r] : NULL;
      if (!g || g->n < 2)
        continue;
      int first = 1; /* one note a group, at the first origin in it */
      for (size_t m = 0; m < k && first; m++)
        first = f->found_in[m] >= n || by_rank[f->found_in[m]] != g;
      size_t in = 0;
      for (size_t m = 0; m < g->n; m++)
        in += found_by(f, g->v[m]);
      if (first && in < g->n)
        add_note(f, g, in);
    }
  }
  sm_free(&groups, group_free);
  free(by_rank);
}
