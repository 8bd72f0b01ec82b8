/* compare_sides.c - the runs `iobattery compare` lines up: one per operand, or with
 * --group-by label every stored run of each label merged into one side, their rows
 * taken as repeats of the same figures. See compare_int.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/compare_int.h"
#include "core/err.h"
#include "stats/result.h"
#include "stats/result_json.h"
#include "store/store.h"

void compare_sides_free(struct cmp_side *s, size_t n)
{
	size_t i, k;

	if (!s)
		return;
	for (i = 0; i < n; i++) {
		if (s[i].merged) {
			free(s[i].run->rows);
			free(s[i].run);
		}
		for (k = 0; k < s[i].nmembers; k++)
			run_free(s[i].members[k]);
		free(s[i].members);
	}
	free(s);
}

/* A run that shows every row of members as its own: the first member's environment and
 * label, the rows borrowed (repeats are told apart by their run, not their index). */
static struct run *merge(struct run **members, size_t n)
{
	struct run *m = malloc(sizeof(*m));
	size_t i, k, total = 0;

	if (!m)
		return NULL;
	*m = *members[0];
	for (i = 0; i < n; i++)
		total += members[i]->nrows;
	m->rows = malloc((total ? total : 1) * sizeof(*m->rows));
	if (!m->rows) {
		free(m);
		return NULL;
	}
	m->nrows = m->cap = 0;
	for (i = 0; i < n; i++)
		for (k = 0; k < members[i]->nrows; k++)
			m->rows[m->nrows++] = members[i]->rows[k];
	m->cap = m->nrows;
	return m;
}

static int same_label(const struct run *a, const struct run *b)
{
	if (!a->label || !b->label)
		return a == b;
	return !strcmp(a->label, b->label);
}

/* Group runs[0..n-1] (taking ownership) by label into sides. */
static int group(struct run **runs, char **spec_of, size_t n, struct cmp_side **out)
{
	struct cmp_side *s = calloc(n ? n : 1, sizeof(*s));
	size_t ns = 0, i, k;

	if (!s)
		goto nomem;
	for (i = 0; i < n; i++) {
		for (k = 0; k < ns && !same_label(s[k].members[0], runs[i]); k++)
			;
		if (k == ns) {
			s[ns].name = (char)('A' + ns);
			s[ns].spec = runs[i]->label ? runs[i]->label : spec_of[i];
			s[ns].members = calloc(n, sizeof(*s[ns].members));
			if (!s[ns].members)
				goto nomem;
			ns++;
		}
		s[k].members[s[k].nmembers++] = runs[i];
		runs[i] = NULL;
	}
	for (k = 0; k < ns; k++) {
		if (s[k].nmembers == 1) {
			s[k].run = s[k].members[0];
			continue;
		}
		s[k].run = merge(s[k].members, s[k].nmembers);
		if (!s[k].run)
			goto nomem;
		s[k].merged = 1;
	}
	*out = s;
	return (int)ns;
nomem:
	err_msg("compare: out of memory");
	for (i = 0; i < n; i++)
		run_free(runs[i]);
	compare_sides_free(s, ns);
	return -ENOMEM;
}

/* Is a run with run's id among runs[0..n-1]? */
static int loaded(struct run **runs, size_t n, const struct run *run)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (runs[i]->id && run->id && !strcmp(runs[i]->id, run->id))
			return 1;
	return 0;
}

int compare_load_sides(char **specs, size_t n, int use_store, int by_label,
		       struct cmp_side **out)
{
	struct run **runs = NULL, **got, **nr;
	char **spec_of = NULL, **ns;
	size_t nruns = 0, i, k;
	int rc = 0, m;

	*out = NULL;
	for (i = 0; i < n && rc == 0; i++) {
		/* compare reads the rows' percentiles, never their histograms */
		if (by_label) {
			m = results_load_all(specs[i], use_store, RESULT_LOAD_NO_HIST, &got);
		} else {
			got = malloc(sizeof(*got));
			if (got)
				got[0] = results_load_flags(specs[i], use_store,
							    RESULT_LOAD_NO_HIST);
			m = !got ? -ENOMEM : got[0] ? 1 : -EINVAL;
		}
		if (m < 0) {
			free(got);
			rc = m;
			break;
		}
		nr = realloc(runs, (nruns + (size_t)m) * sizeof(*nr));
		ns = nr ? realloc(spec_of, (nruns + (size_t)m) * sizeof(*ns)) : NULL;
		if (nr)
			runs = nr;
		if (ns)
			spec_of = ns;
		for (k = 0; k < (size_t)m; k++) {
			if (!nr || !ns || (by_label && loaded(runs, nruns, got[k]))) {
				run_free(got[k]);	/* named twice: once is enough */
				continue;
			}
			runs[nruns] = got[k];
			spec_of[nruns++] = specs[i];
		}
		free(got);
		if (!nr || !ns)
			rc = -ENOMEM;
	}
	if (rc == 0 && by_label) {
		rc = group(runs, spec_of, nruns, out);	/* takes the runs */
		nruns = 0;
	} else if (rc == 0) {
		*out = calloc(nruns ? nruns : 1, sizeof(**out));
		rc = *out ? (int)nruns : -ENOMEM;
		for (k = 0; *out && k < nruns; k++) {
			(*out)[k].name = (char)('A' + k);
			(*out)[k].spec = spec_of[k];
			(*out)[k].run = runs[k];
			(*out)[k].members = malloc(sizeof(struct run *));
			if (!(*out)[k].members) {
				rc = -ENOMEM;
				continue;
			}
			(*out)[k].members[0] = runs[k];
			(*out)[k].nmembers = 1;
			runs[k] = NULL;
		}
		if (rc < 0) {
			compare_sides_free(*out, nruns);
			*out = NULL;
		}
	}
	if (rc == -ENOMEM)
		err_msg("compare: out of memory");
	for (k = 0; k < nruns; k++)
		run_free(runs[k]);
	free(runs);
	free(spec_of);
	return rc;
}
