/* sqlite_dl.c - SQLite through dlopen (sqlite_dl.h). */
#define SQLITE_DL_NO_REDIRECT
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "config.h"
#include "core/dlib.h"
#include "core/sqlite_dl.h"

#ifndef IOB_SQLITE_SONAME
#define IOB_SQLITE_SONAME "libsqlite3.so.0"
#endif
#define SQLITE_WHAT "SQLite (for the results store and db --engine sqlite)"

#define SQLITE_DL_ENTRY(m) { "sqlite3_" #m, offsetof(struct sqlite_dl, m) },
static const struct dlib_sym sqlite_syms[] = { SQLITE_DL_FUNCTIONS(SQLITE_DL_ENTRY) };

/* Filled once by load_once and read-only after: a constant of the process once loaded. */
static struct sqlite_dl table;
static int loaded;		/* 1: table filled; -1: the load failed (why in load_err) */
static char load_err[512];
static pthread_once_t load_once_flag = PTHREAD_ONCE_INIT;

#ifndef IOB_SQLITE_PATH
#define IOB_SQLITE_PATH NULL
#endif

static void load_once(void)
{
	void *h;

	loaded = dlib_load_at(IOB_SQLITE_SONAME, IOB_SQLITE_PATH, SQLITE_WHAT, sqlite_syms,
			      sizeof(sqlite_syms) / sizeof(sqlite_syms[0]), &table,
			      sizeof(table), &h, load_err, sizeof(load_err)) == 0 ? 1 : -1;
}

const struct sqlite_dl *sqlite_dl_load(char *err, size_t len)
{
	pthread_once(&load_once_flag, load_once);
	if (loaded == 1)
		return &table;
	snprintf(err, len, "%s", load_err);
	return NULL;
}

const struct sqlite_dl *sqlite_dl(void)
{
	if (loaded != 1) {
		fprintf(stderr, "iobattery: SQLite used before it was loaded\n");
		abort();
	}
	return &table;
}
