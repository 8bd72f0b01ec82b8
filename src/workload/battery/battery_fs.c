/* battery_fs.c - the file-system matrix: --fs parsed into entries (pure), and one entry
 * made (sparse image, loop device, mkfs, mount) and undone, every step registered in
 * the cleanup registry so that a stop signal or a failure undoes it in reverse order.
 * The system side is fs/fsmake.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "fs/fsmake.h"
#include "fs/scratch.h"
#include "workload/battery/battery.h"

static void trim(char *s)
{
	size_t n = strlen(s), i = 0;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	while (s[i] == ' ' || s[i] == '\t')
		i++;
	memmove(s, s + i, n - i + 1);
}

/* The type at the start of a segment ("xfs@noatime" -> "xfs"), into t. */
static void seg_type(const char *seg, char *t, size_t len)
{
	size_t n = strcspn(seg, ":@");

	snprintf(t, len, "%.*s", (int)(n < len ? n : len - 1), seg);
	trim(t);
}

static int fail(char *err, size_t len, const char *what, const char *subject)
{
	snprintf(err, len, "%s: '%s'", what, subject);
	return -EINVAL;
}

/* The entry's options against the tools' grammars: nothing that names a file or a
 * device reaches mkfs or mount (the only device they touch is our loop device). */
static int check_opts(const struct battery_fs_entry *e, char *err, size_t len)
{
	char why[320];

	if (fsmake_mkfs_opts_check(fsmake_type(e->type), e->mkfs_opts, why,
				   sizeof(why)) < 0 ||
	    fsmake_mount_opts_check(e->mount_opts, why, sizeof(why)) < 0) {
		snprintf(err, len, "--fs: %s: %s", e->label, why);
		return -EINVAL;
	}
	return 0;
}

/* One entry TYPE[:MKFS-OPTIONS][@MOUNT-OPTIONS] into e. */
static int parse_entry(const char *seg, struct battery_fs_entry *e, char *err, size_t len)
{
	const char *colon, *at;
	char buf[512];

	memset(e, 0, sizeof(e[0]));
	snprintf(buf, sizeof(buf), "%s", seg);
	trim(buf);
	if (strlen(buf) >= sizeof(e->label))
		return fail(err, len, "--fs: an entry too long", seg);
	memcpy(e->label, buf, strlen(buf) + 1);
	seg_type(buf, e->type, sizeof(e->type));
	if (!e->type[0])
		return fail(err, len, "--fs: an entry without a file system", seg);
	if (!fsmake_type(e->type)) {
		snprintf(err, len, "--fs: unknown file system: '%s': use %s", e->type,
			 fsmake_type_names());
		return -EINVAL;
	}
	colon = strchr(buf, ':');
	at = strchr(buf, '@');
	if (colon && (!at || colon < at))
		snprintf(e->mkfs_opts, sizeof(e->mkfs_opts), "%.*s",
			 (int)(at ? (size_t)(at - colon - 1) : strlen(colon + 1)), colon + 1);
	if (at)
		snprintf(e->mount_opts, sizeof(e->mount_opts), "%s", at + 1);
	trim(e->mkfs_opts);
	trim(e->mount_opts);
	if ((colon && !e->mkfs_opts[0] && (!at || colon < at)) || (at && !e->mount_opts[0]))
		return fail(err, len, "--fs: empty options", seg);
	return check_opts(e, err, len);
}

int battery_fs_parse(const char *spec, struct battery_fs_entry *out, unsigned max,
		     char *err, size_t len)
{
	char buf[2048], *save = NULL, *seg, t[32];
	unsigned n = 0, i;

	if (!spec || !*spec)
		return fail(err, len, "--fs: no file system given", spec ? spec : "");
	if (snprintf(buf, sizeof(buf), "%s", spec) >= (int)sizeof(buf))
		return fail(err, len, "--fs: too long", spec);
	for (seg = strtok_r(buf, ",", &save); seg; seg = strtok_r(NULL, ",", &save)) {
		seg_type(seg, t, sizeof(t));
		/* "xfs@noatime,logbsize=256k": a word that names no type continues the mount
		 * options of the entry before it */
		if (!fsmake_type(t) && n && out[n - 1].mount_opts[0] && !strchr(seg, ':') &&
		    !strchr(seg, '@')) {
			struct battery_fs_entry *e = &out[n - 1];
			size_t ml = strlen(e->mount_opts), ll = strlen(e->label);

			snprintf(e->mount_opts + ml, sizeof(e->mount_opts) - ml, ",%s", seg);
			snprintf(e->label + ll, sizeof(e->label) - ll, ",%s", seg);
			trim(e->mount_opts);
			if (check_opts(e, err, len) < 0)
				return -EINVAL;
			continue;
		}
		if (n == max)
			return fail(err, len, "--fs: too many file systems (16 at most)", spec);
		if (parse_entry(seg, &out[n], err, len) < 0)
			return -EINVAL;
		for (i = 0; i < n; i++)
			if (!strcmp(out[i].label, out[n].label))
				return fail(err, len, "--fs: given twice", out[n].label);
		n++;
	}
	if (!n)
		return fail(err, len, "--fs: no file system given", spec);
	return (int)n;
}

int battery_fs_make(const struct battery_fs_entry *e, unsigned idx, const char *scratch,
		    uint64_t size, const char *device, struct battery_fs *st, char *msg,
		    size_t len)
{
	const struct fsmake_type *t = fsmake_type(e->type);
	int rc, lfd = -1;

	memset(st, 0, sizeof(*st));
	st->dio = 1;	/* a device of the user's: no cache under it */
	st->image_slot = st->loop_slot = st->mount_slot = -1;
	snprintf(st->mnt, sizeof(st->mnt), "%s/%s%u", scratch, FSMAKE_MNT_PREFIX, idx + 1);
	if (device) {
		snprintf(st->dev, sizeof(st->dev), "%s", device);
	} else {
		snprintf(st->image, sizeof(st->image), "%s/%u-%s.img", scratch, idx + 1, e->type);
		rc = fsmake_image(st->image, size);
		if (rc < 0) {
			snprintf(msg, len, "cannot make the image '%s': %s", st->image,
				 strerror(-rc));
			return rc;
		}
		st->image_slot = cleanup_register(st->image, 0);
		rc = fsmake_loop_attach(st->image, st->dev, sizeof(st->dev), &lfd, &st->dio);
		if (rc < 0) {
			snprintf(msg, len, "cannot attach a loop device to '%s': %s", st->image,
				 strerror(-rc));
			battery_fs_undo(st);
			return rc;
		}
		st->loop_slot = cleanup_register_undo(st->dev, CLEANUP_LOOP, fsmake_undo);
	}
	rc = fsmake_mkfs(t, e->mkfs, st->dev, e->mkfs_opts, msg, len);
	if (rc == 0) {
		rc = fsmake_mount(st->dev, st->mnt, t->name, e->mount_opts, msg, len);
		if (rc == 0)
			st->mount_slot = cleanup_register_undo(st->mnt, CLEANUP_MOUNT, fsmake_undo);
	}
	fsmake_loop_release(lfd);	/* autoclear: the mount holds the device now */
	if (rc < 0)
		battery_fs_undo(st);
	return rc;
}

int battery_fs_undo(struct battery_fs *st)
{
	int rc = 0, r;

	r = cleanup_remove(st->mount_slot);
	rc = r;
	r = cleanup_remove(st->loop_slot);
	if (!rc)
		rc = r;
	r = cleanup_remove(st->image_slot);
	if (!rc)
		rc = r;
	st->mount_slot = st->loop_slot = st->image_slot = -1;
	return rc;
}
