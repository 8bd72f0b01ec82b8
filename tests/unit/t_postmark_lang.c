/* t_postmark_lang.c - PostMark's command language: settings, defaults, bad values,
 * locations with weights, run/load/quit actions, show. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "workload/postmark/postmark.h"

static int ex(struct pm_config *c, const char *line, char **arg)
{
	char err[256];
	char *a = NULL;
	int r;

	r = pm_exec(c, line, stdout, &a, err, sizeof(err));
	if (arg)
		*arg = a;
	else
		free(a);
	if (r < 0)
		CHECK(err[0] != '\0');
	return r;
}

static void t_defaults(void)
{
	struct pm_config c;

	pm_config_init(&c);
	CHECK_EQ_U64(c.size_low, 500);
	CHECK_EQ_U64(c.size_high, 10000);
	CHECK_EQ_U64(c.number, 500);
	CHECK_EQ_U64(c.transactions, 500);
	CHECK_EQ_U64(c.seed, 42);
	CHECK_EQ_U64(c.read_block, 512);
	CHECK_EQ_U64(c.write_block, 512);
	CHECK_EQ_U64(c.subdirs, 0);
	CHECK(c.bias_read == 5 && c.bias_create == 5);
	CHECK(c.buffered == 1 && c.terse == 0 && c.fsync == 0 && c.direct == 0);
	CHECK(c.nlocs == 0);
}

static void t_settings(void)
{
	struct pm_config c;

	pm_config_init(&c);
	CHECK(ex(&c, "set size 300 100000", NULL) == PM_ACT_NONE);
	CHECK(c.size_low == 300 && c.size_high == 100000);
	CHECK(ex(&c, "  set   size 4k  ", NULL) == PM_ACT_NONE);
	CHECK(c.size_low == 4096 && c.size_high == 4096);
	CHECK(ex(&c, "set number 20000", NULL) == 0 && c.number == 20000);
	CHECK(ex(&c, "set transactions 400000", NULL) == 0 && c.transactions == 400000);
	CHECK(ex(&c, "set seed 7", NULL) == 0 && c.seed == 7);
	CHECK(ex(&c, "set subdirectories 10", NULL) == 0 && c.subdirs == 10);
	CHECK(ex(&c, "set read 4096", NULL) == 0 && c.read_block == 4096);
	CHECK(ex(&c, "set write 8192", NULL) == 0 && c.write_block == 8192);
	CHECK(ex(&c, "set buffering false", NULL) == 0 && c.buffered == 0);
	CHECK(ex(&c, "set bias read -1", NULL) == 0 && c.bias_read == -1);
	CHECK(ex(&c, "set bias create 10", NULL) == 0 && c.bias_create == 10);
	CHECK(ex(&c, "set report terse", NULL) == 0 && c.terse == 1);
	CHECK(ex(&c, "set fsync true", NULL) == 0 && c.fsync == 1);
	CHECK(ex(&c, "set direct true", NULL) == 0 && c.direct == 1);
	CHECK(ex(&c, "", NULL) == PM_ACT_NONE);
	CHECK(ex(&c, "# a comment", NULL) == PM_ACT_NONE);
	pm_config_free(&c);
}

static void t_bad(void)
{
	static const char *const bad[] = {
		"set size 100 50", "set size 0", "set size -1 10", "set size", "set size 1 2 3",
		"set number 0", "set number -1", "set number x", "set number 1 2",
		"set transactions 0", "set seed -4", "set subdirectories 0", "set read 0",
		"set write big", "set buffering yesno", "set bias read 11", "set bias create -2",
		"set bias sideways 1", "set report short", "set fsync 2", "set nothing 1",
		"set", "launch", "load", "run a b", "set location",
		"set location /nonexistent/dir/for/sure",
	};
	struct pm_config c, before;
	size_t i;

	pm_config_init(&c);
	before = c;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = ex(&c, bad[i], NULL);

		if (r >= 0)
			fprintf(stderr, "accepted: '%s'\n", bad[i]);
		CHECK(r < 0);
	}
	CHECK(memcmp(&c, &before, sizeof(c)) == 0);	/* nothing changed */
}

static void t_locations(void)
{
	struct pm_config c, d;
	char tmpl[] = "/tmp/t_pm_lang.XXXXXX", line[128];
	char *dir = mkdtemp(tmpl);

	CHECK(dir != NULL);
	if (!dir)
		return;
	pm_config_init(&c);
	snprintf(line, sizeof(line), "set location %s", dir);
	CHECK(ex(&c, line, NULL) == 0 && c.nlocs == 1 && c.locs[0].weight == 1);
	snprintf(line, sizeof(line), "set location +%s 3", dir);
	CHECK(ex(&c, line, NULL) == 0 && c.nlocs == 2 && c.locs[1].weight == 3);
	CHECK(!strcmp(c.locs[1].path, dir));
	CHECK(ex(&c, "set location +/tmp 0", NULL) < 0);	/* weight 0 */
	CHECK(pm_config_copy(&d, &c) == 0 && d.nlocs == 2 && d.locs[0].path != c.locs[0].path);
	pm_config_free(&d);
	snprintf(line, sizeof(line), "set location -%s", dir);
	CHECK(ex(&c, line, NULL) == 0 && c.nlocs == 1);
	CHECK(ex(&c, "set location -/not/there", NULL) < 0);
	snprintf(line, sizeof(line), "set location %s 2", dir);
	CHECK(ex(&c, line, NULL) == 0 && c.nlocs == 1 && c.locs[0].weight == 2);
	pm_config_free(&c);
	rmdir(dir);
}

static void t_actions(void)
{
	struct pm_config c;
	char *arg;

	pm_config_init(&c);
	CHECK(ex(&c, "run", &arg) == PM_ACT_RUN && arg == NULL);
	CHECK(ex(&c, "run /tmp/report.txt", &arg) == PM_ACT_RUN && arg &&
	      !strcmp(arg, "/tmp/report.txt"));
	free(arg);
	CHECK(ex(&c, "load my.pm", &arg) == PM_ACT_LOAD && arg && !strcmp(arg, "my.pm"));
	free(arg);
	CHECK(ex(&c, "quit", NULL) == PM_ACT_QUIT);
	CHECK(ex(&c, "exit", NULL) == PM_ACT_QUIT);
	CHECK(ex(&c, "help", NULL) == PM_ACT_NONE);
	CHECK(ex(&c, "?", NULL) == PM_ACT_NONE);
}

static void t_show(void)
{
	struct pm_config c;
	char buf[4096];
	FILE *f = tmpfile();
	size_t n;

	CHECK(f != NULL);
	if (!f)
		return;
	pm_config_init(&c);
	pm_show(&c, f);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	CHECK(strstr(buf, "The base number of files is 500\n") != NULL);
	CHECK(strstr(buf, "Transactions: 500\n") != NULL);
	CHECK(strstr(buf, "Files range between 500 bytes and 9.77 kilobytes in size\n") != NULL);
	CHECK(strstr(buf, "Block sizes are: read=512 bytes, write=512 bytes\n") != NULL);
	CHECK(strstr(buf, "Biases are: read/append=5, create/delete=5\n") != NULL);
	CHECK(strstr(buf, "Using Unix buffered file I/O\n") != NULL);
	CHECK(strstr(buf, "Random number generator seed is 42\n") != NULL);
	CHECK(strstr(buf, "Report format is verbose.\n") != NULL);
}

int main(void)
{
	RUN(t_defaults);
	RUN(t_settings);
	RUN(t_bad);
	RUN(t_locations);
	RUN(t_actions);
	RUN(t_show);
	return test_done();
}
