/* dlib.c - a shared library opened on demand (dlib.h). */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/dlib.h"

/* A library stays mapped after dlib_close: ncurses keeps its terminal's description in
 * its own globals, which delscreen does not free; unmapped, they would be memory nobody
 * points to (a leak to LeakSanitizer), and the process ends soon after anyway. */
#ifdef RTLD_NODELETE
#define DLIB_KEEP	RTLD_NODELETE
#else
#define DLIB_KEEP	0
#endif

int dlib_load(const char *name, const char *what, const struct dlib_sym *syms, size_t n,
	      void *table, size_t table_size, void **handle, char *err, size_t len)
{
	const char *e;
	void *h, *f;
	size_t i;

	memset(table, 0, table_size);
	*handle = NULL;
	dlerror();
	h = dlopen(name, RTLD_NOW | RTLD_LOCAL | DLIB_KEEP);
	if (!h) {
		e = dlerror();
		snprintf(err, len, "cannot load %s: %s", what, e ? e : name ? name : "the program");
		return -ENOENT;
	}
	for (i = 0; i < n; i++) {
		f = dlsym(h, syms[i].name);
		if (!f) {
			snprintf(err, len, "cannot load %s: '%s' has no %s", what,
				 name ? name : "the program", syms[i].name);
			dlclose(h);
			memset(table, 0, table_size);
			return -ENOEXEC;
		}
		/* POSIX: an address from dlsym converts to the pointer type it has */
		memcpy((char *)table + syms[i].off, &f, sizeof(f));
	}
	*handle = h;
	return 0;
}

int dlib_load_at(const char *soname, const char *path, const char *what,
		 const struct dlib_sym *syms, size_t n, void *table, size_t table_size,
		 void **handle, char *err, size_t len)
{
	char e2[256];
	int rc = dlib_load(soname, what, syms, n, table, table_size, handle, err, len);

	if (rc < 0 && path && strcmp(path, soname) != 0 &&
	    dlib_load(path, what, syms, n, table, table_size, handle, e2, sizeof(e2)) == 0)
		rc = 0;
	return rc;
}

/* The running binary's folder into dir (Linux: /proc/self/exe; elsewhere empty). */
static void exe_dir(char *dir, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", dir, len - 1);
	char *slash;

	if (n <= 0) {
		dir[0] = 0;
		return;
	}
	dir[n] = 0;
	slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	else
		dir[0] = 0;
}

void *dlib_plugin(const char *file, char *err, size_t len)
{
	char dir[PATH_MAX], path[PATH_MAX + 64], first[PATH_MAX + 64] = "";
	const char *e = NULL;
	void *h;
	size_t i;

	exe_dir(dir, sizeof(dir));
	if (!dir[0]) {
		snprintf(err, len, "cannot find %s: the program's own folder is unknown", file);
		return NULL;
	}
	for (i = 0; i < 2; i++) {
		/* beside the binary (the build tree), then PREFIX/lib/iobattery */
		if (i == 0)
			snprintf(path, sizeof(path), "%s/%s", dir, file);
		else
			snprintf(path, sizeof(path), "%s/../lib/iobattery/%s", dir, file);
		if (access(path, F_OK) != 0)
			continue;
		dlerror();
		h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
		if (h)
			return h;
		e = dlerror();
		snprintf(first, sizeof(first), "%s", path);
		break;
	}
	if (e)
		snprintf(err, len, "cannot load %s: %s", first, e);
	else
		snprintf(err, len, "cannot find %s beside the program or in %s/../lib/iobattery",
			 file, dir);
	return NULL;
}

void dlib_close(void *handle)
{
	if (handle)
		dlclose(handle);
}
