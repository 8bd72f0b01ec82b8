/* t_db_pq.c - libpq loaded with dlopen: the binary and this test are not linked with
 * -lpq, so every call here goes through the loaded table. */
#include <errno.h>
#include <string.h>

#include "test.h"
#include "workload/db/db_pq.h"

#ifdef HAVE_LIBPQ
static void t_load_errors(void)
{
	struct db_pq pq;
	void *h = (void *)&pq;
	char err[512] = "";

	CHECK(db_pq_load("/nonexistent-dir/libpq.so.5", &pq, &h, err, sizeof(err)) == -ENOENT);
	CHECK(h == NULL && pq.connectdb == NULL);
	CHECK(strstr(err, "cannot load libpq (for --pg and --pg-local): ") == err);
	CHECK(strstr(err, "/nonexistent-dir/libpq.so.5") != NULL);
	/* the test program itself is not linked with libpq: no PQconnectdb in it */
	err[0] = '\0';
	CHECK(db_pq_load(NULL, &pq, &h, err, sizeof(err)) == -ENOEXEC);
	CHECK(h == NULL && pq.connectdb == NULL);
	CHECK(strstr(err, "has no PQconnectdb") != NULL);
}

static void t_load(void)
{
	char err[512] = "";
	const struct db_pq *pq = db_pq_get(err, sizeof(err)), *again;
	PGconn *c;

	CHECK(pq != NULL);
	if (!pq) {
		fprintf(stderr, "%s\n", err);
		return;
	}
	again = db_pq_get(err, sizeof(err));
	CHECK(again == pq);
	CHECK(pq->connectdb && pq->ping && pq->free_cancel && pq->get_value);
	/* calls reach the real library: nothing listens on a socket in a missing directory */
	CHECK(pq->ping("host=/nonexistent-dir port=1") == PQPING_NO_RESPONSE);
	c = pq->connectdb("host=/nonexistent-dir port=1");
	CHECK(c != NULL && pq->status(c) == CONNECTION_BAD);
	CHECK(c && strstr(pq->error_message(c), "/nonexistent-dir/.s.PGSQL.1") != NULL);
	pq->finish(c);
}
#else
static void t_without_libpq(void)
{
	CHECK(1);
}
#endif

int main(void)
{
#ifdef HAVE_LIBPQ
	RUN(t_load_errors);
	RUN(t_load);
	return test_done();
#else
	RUN(t_without_libpq);
	printf("built without libpq\n");
	return test_done() ? 1 : TEST_SKIP;
#endif
}
