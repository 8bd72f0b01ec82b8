/* fsopts.c - the battery's mkfs and mount option strings checked against each tool's
 * option grammar (fsmake.h): an option the grammar does not have, a word that is not an
 * option's argument (mkfs would take it as a device), and every option or sub-option that
 * names a file or device (an external log or journal, a root directory to copy, an undo
 * file, a prototype) are refused, so the only device mkfs or mount ever touches is the
 * loop device the battery made. Pure: no system call. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fs/fsmake.h"

/* One tool's grammar: short letters that take no argument, letters that take one, the
 * letters that name a file (refused whatever their argument), and long options. */
struct grammar {
	const char *prefix;		/* the types it serves: "ext", "xfs", "btrfs" */
	const char *flags;		/* -F -q ... */
	const char *with_arg;		/* -b 4096 ... */
	const char *path_args;		/* -d DIR, -l FILE, -z UNDO, -p PROTO, -r ROOTDIR */
	const char *const *longs;	/* "--name" or "--name=" (takes a value) */
};

static const char *const no_longs[] = { NULL };
static const char *const btrfs_longs[] = {
	"--force", "--quiet", "--verbose", "--mixed", "--nodiscard", "--shrink",
	"--byte-count=", "--data=", "--metadata=", "--nodesize=", "--sectorsize=",
	"--label=", "--features=", "--runtime-features=", "--uuid=", "--csum=",
	"--checksum=", NULL
};

static const struct grammar grammars[] = {
	/* mke2fs(8) */
	{ "ext", "cDFjnqSvV", "bCeEgGiIJLmMNoOrtTU", "dlz", no_longs },
	/* mkfs.xfs(8): most letters take a sub-option list */
	{ "xfs", "fKNqV", "bdilmnrsLc", "p", no_longs },
	/* mkfs.btrfs(8) */
	{ "btrfs", "fKqMVv", "bdmnsLORUc", "r", btrfs_longs },
};

/* Sub-option keys (key=value or a bare key) that name a file or a device. */
static const char *const path_keys[] = {
	"logdev", "rtdev", "name", "file", "device", "journal_dev", "journal_path",
	"options", "protofile", "loop", "root_dir", "undo", NULL
};

static int refuse(char *why, size_t len, const char *what, const char *word)
{
	snprintf(why, len, "%s: '%s': options must not name a file or device", what, word);
	return -EINVAL;
}

/* A comma-separated list of key[=value]: no key that names a path, no value that looks
 * like one (a '/' in it). */
static int check_list(const char *list, char *why, size_t len)
{
	char buf[512], *save = NULL, *w;
	size_t k;

	snprintf(buf, sizeof(buf), "%s", list);
	for (w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		size_t kl = strcspn(w, "=");

		for (k = 0; path_keys[k]; k++)
			if (strlen(path_keys[k]) == kl && !strncmp(w, path_keys[k], kl))
				return refuse(why, len, "an option that names a file", w);
		if (strchr(w, '/'))
			return refuse(why, len, "a path in an option", w);
	}
	return 0;
}

static int check_long(const struct grammar *g, const char *w, char *why, size_t len)
{
	const char *eq = strchr(w, '=');
	size_t n = eq ? (size_t)(eq - w) : strlen(w), k;

	for (k = 0; g->longs[k]; k++) {
		size_t ln = strcspn(g->longs[k], "=");
		int takes = g->longs[k][ln] == '=';

		if (ln != n || strncmp(g->longs[k], w, n))
			continue;
		if (takes != !!eq)
			return refuse(why, len, takes ? "an option without its value (use "
					  "--name=value)" : "an option that takes no value", w);
		return eq ? check_list(eq + 1, why, len) : 0;
	}
	snprintf(why, len, "unknown mkfs option: '%s'", w);
	return -EINVAL;
}

/* One "-abc" word (flags bundled, the last may take its argument in the word or as the
 * next word: *next is set then). */
static int check_short(const struct grammar *g, const char *w, int *next, char *why,
		       size_t len)
{
	const char *p;

	for (p = w + 1; *p; p++) {
		if (strchr(g->path_args, *p))
			return refuse(why, len, "an option that names a file", w);
		if (strchr(g->with_arg, *p)) {
			if (p[1])
				return check_list(p + 1, why, len);
			*next = 1;
			return 0;
		}
		if (!strchr(g->flags, *p)) {
			snprintf(why, len, "unknown mkfs option: '%s'", w);
			return -EINVAL;
		}
	}
	return 0;
}

int fsmake_mkfs_opts_check(const struct fsmake_type *t, const char *opts, char *why,
			   size_t len)
{
	char buf[1024], *save = NULL, *w;
	const struct grammar *g = NULL;
	int want_arg = 0;
	size_t i;

	for (i = 0; i < sizeof(grammars) / sizeof(grammars[0]); i++)
		if (!strncmp(t->name, grammars[i].prefix, strlen(grammars[i].prefix)))
			g = &grammars[i];
	if (!opts || !*opts)
		return 0;
	if (!g || strlen(opts) >= sizeof(buf)) {
		snprintf(why, len, "mkfs options not understood: '%s'", opts);
		return -EINVAL;
	}
	snprintf(buf, sizeof(buf), "%s", opts);
	for (w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		int rc;

		if (want_arg) {
			want_arg = 0;
			rc = check_list(w, why, len);
		} else if (w[0] != '-' || !w[1]) {
			rc = refuse(why, len, "not an option (mkfs would take it as a device)",
				    w);
		} else if (w[1] == '-') {
			rc = check_long(g, w, why, len);
		} else {
			rc = check_short(g, w, &want_arg, why, len);
		}
		if (rc < 0)
			return rc;
	}
	if (want_arg) {
		snprintf(why, len, "a mkfs option without its value: '%s'", opts);
		return -EINVAL;
	}
	return 0;
}

int fsmake_mount_opts_check(const char *opts, char *why, size_t len)
{
	if (!opts || !*opts)
		return 0;
	if (strlen(opts) >= 512) {
		snprintf(why, len, "mount options too long: '%s'", opts);
		return -EINVAL;
	}
	return check_list(opts, why, len);
}
