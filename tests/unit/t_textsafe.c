/* t_textsafe.c - UTF-8 checks and repairs, cuts on character boundaries, terminal
 * escaping (core/textsafe.c), and regular-file reading (core/rfile.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"
#include "core/rfile.h"
#include "core/textsafe.h"

static int fixed_is(const char *in, const char *want)
{
	char *s = textsafe_utf8_fix(in);
	int ok = s && !strcmp(s, want);

	if (!ok)
		fprintf(stderr, "utf8_fix: got '%s', want '%s'\n", s ? s : "(null)", want);
	free(s);
	return ok;
}

static int term_is(const char *in, const char *want)
{
	char *s = textsafe_term(in);
	int ok = s && !strcmp(s, want);

	if (!ok)
		fprintf(stderr, "term: got '%s', want '%s'\n", s ? s : "(null)", want);
	free(s);
	return ok;
}

static void t_utf8(void)
{
	char buf[16];

	CHECK(textsafe_utf8_valid("plain ascii"));
	CHECK(textsafe_utf8_valid("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
	CHECK(!textsafe_utf8_valid("caf\xe9"));
	CHECK(!textsafe_utf8_valid("\xc0\xaf"));		/* overlong '/' */
	CHECK(!textsafe_utf8_valid("\xed\xa0\x80"));		/* a surrogate */
	CHECK(!textsafe_utf8_valid("\xf4\x90\x80\x80"));	/* past U+10FFFF */
	CHECK(!textsafe_utf8_valid("\xe2\x82"));		/* cut short */
	CHECK(fixed_is("caf\xe9", "caf\xc3\xa9"));
	CHECK(fixed_is("\xff\xfe", "\xc3\xbf\xc3\xbe"));
	CHECK(fixed_is("ok \xe2\x82\xac", "ok \xe2\x82\xac"));
	CHECK(textsafe_utf8_valid("\xc3\xbf"));
	/* a cut keeps whole characters only */
	CHECK_EQ_U64(textsafe_utf8_cut("a\xe2\x82\xac", 3), 1);
	CHECK_EQ_U64(textsafe_utf8_cut("a\xe2\x82\xac", 4), 4);
	snprintf(buf, sizeof(buf), "%s", "abc\xe2\x82");
	textsafe_utf8_trim(buf);
	CHECK(!strcmp(buf, "abc"));
}

static void t_term(void)
{
	CHECK(!textsafe_term_needed("a label, caf\xc3\xa9"));
	CHECK(textsafe_term_needed("\x1b]0;title\x07"));
	CHECK(textsafe_term_needed("two\nlines"));
	CHECK(textsafe_term_needed("c1 \xc2\x9b"));
	CHECK(textsafe_term_needed("raw \x9b"));
	CHECK(term_is("a\x1b[2Jb", "a\\x1b[2Jb"));
	CHECK(term_is("x\ny\tz\x7f", "x\\x0ay\\x09z\\x7f"));
	CHECK(term_is("\xc2\x9b" "31m", "\\u009b31m"));
	CHECK(term_is("caf\xe9", "caf\\xe9"));
	CHECK(term_is("caf\xc3\xa9", "caf\xc3\xa9"));
}

static void t_rfile(void)
{
	char dir[] = "/tmp/t_rfile.XXXXXX", path[64], *buf = NULL;
	size_t len = 0;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	CHECK(rfile_read(dir, 0, 100, &buf, &len) == -EISDIR);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	CHECK(mkfifo(path, 0600) == 0);
	CHECK(rfile_open(path, 0) == -EINVAL);		/* refused, not blocked */
	CHECK(rfile_read(path, RFILE_PIPES, 100, &buf, &len) == 0 && len == 0);
	free(buf);
	unlink(path);
	snprintf(path, sizeof(path), "%s/f", dir);
	f = fopen(path, "w");
	CHECK(f && fwrite("ab\0cd", 1, 5, f) == 5 && fclose(f) == 0);
	CHECK(rfile_read(path, 0, 100, &buf, &len) == 0 && len == 5 && buf[5] == '\0');
	free(buf);
	CHECK(rfile_read(path, 0, 4, &buf, &len) == -EFBIG);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	RUN(t_utf8);
	RUN(t_term);
	RUN(t_rfile);
	return test_done();
}
