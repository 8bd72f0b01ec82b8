/* dlib.h - a shared library opened when a command first needs it, never at start-up
 * (SQLite for the store and db, libpq for db --pg, libxlsxwriter for iozone -b, ncurses
 * for --watch, libbpf for the block layer's latency): its functions are looked up by name
 * into a caller's table of function pointers, so that a plain `iobattery --help` loads
 * none of them. Thread-safe (dlopen is); no shared state. */
#ifndef IOB_CORE_DLIB_H
#define IOB_CORE_DLIB_H

#include <stddef.h>

/* One symbol: its name in the library and the offset of its pointer in the table. */
struct dlib_sym {
	const char *name;
	size_t off;
};

/* Open the library name (a soname or a path; NULL: the program itself) and store the
 * address of each of the n symbols at table + syms[i].off. what names the library and
 * its use in messages ("libpq (for --pg and --pg-local)"). Returns 0 and *handle (close
 * it with dlib_close once no pointer of the table is used), -ENOENT when the library
 * cannot be opened, -ENOEXEC when a symbol is missing (err says which; the table is
 * zeroed then). */
int dlib_load(const char *name, const char *what, const struct dlib_sym *syms, size_t n,
	      void *table, size_t table_size, void **handle, char *err, size_t len);
/* dlib_load of soname (found through LD_LIBRARY_PATH and the loader's cache), then, where
 * that fails, of path (where configure found the library: a libdir outside the loader's
 * search path; NULL or the same name: not tried). The first one's error is kept. */
int dlib_load_at(const char *soname, const char *path, const char *what,
		 const struct dlib_sym *syms, size_t n, void *table, size_t table_size,
		 void **handle, char *err, size_t len);
/* Open iobattery's own plugin file (e.g. "iobattery-mpi.so", built beside the binary and
 * installed in PREFIX/lib/iobattery): looked for beside the running binary, then in
 * ../lib/iobattery from its folder; RTLD_GLOBAL, so that a library it loads can load
 * its own modules. Returns the handle, or NULL with err saying where it looked. */
void *dlib_plugin(const char *file, char *err, size_t len);
/* Close what dlib_load or dlib_plugin opened; NULL is allowed. A dlib_load library
 * stays mapped (RTLD_NODELETE where there is one: dlib.c says why). */
void dlib_close(void *handle);

#endif
