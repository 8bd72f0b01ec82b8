/* t_fio_plus.c - json+'s bins: our histogram's buckets mapped onto fio's latency bins
 * (output/fio_fmt.h), checked against fio's layout as its documentation and output show
 * it (values below 128 ns one bin each, then 64 bins per power of two, each keyed by its
 * middle, the last bin for everything from 2^34 - 2^27 ns on) and against keys fio 3.33
 * wrote. */
#include <stdint.h>

#include "output/fio_fmt.h"
#include "stats/hist.h"
#include "test.h"

/* fio's bin of a value, from the layout above (not from our hist_index). */
static unsigned layout_bin(uint64_t v)
{
	unsigned msb = 0, e, b;
	uint64_t x = v;

	while (x >>= 1)
		msb++;
	if (v < 128)
		return (unsigned)v;
	e = msb - 6;				/* bins in this power are 2^e wide */
	b = (e + 1) * 64 + (unsigned)((v - (1ull << msb)) >> e);
	return b < FIO_PLAT_NR - 1 ? b : FIO_PLAT_NR - 1;
}

static void t_keys_from_fio(void)
{
	/* keys fio 3.33 wrote in json+ for 4k psync reads, and the bins below 128 */
	static const uint64_t seen[] = { 51968, 52480, 71168, 74240, 75264, 82432 };
	unsigned i, k;

	for (i = 0; i < sizeof(seen) / sizeof(seen[0]); i++) {
		k = fio_plat_index(hist_index(seen[i]));
		CHECK_EQ_U64(fio_plat_value(k), seen[i]);
	}
	for (i = 0; i < 128; i++)
		CHECK_EQ_U64(fio_plat_value(fio_plat_index(hist_index(i))), i);
	CHECK_EQ_U64(fio_plat_value(128), 129);		/* [128, 130) */
	CHECK_EQ_U64(fio_plat_value(191), 255);		/* [254, 256) */
	CHECK_EQ_U64(fio_plat_value(192), 258);		/* [256, 260) */
}

static void t_same_layout(void)
{
	uint64_t v, step;
	unsigned b;

	/* every bucket of ours below fio's last bin is fio's bin of the same number, and the
	 * key is the middle of the values it holds */
	for (b = 0; b < FIO_PLAT_NR - 1; b++) {
		uint64_t lo = hist_bucket_low(b), w = hist_bucket_width(b);

		CHECK_EQ_U64(fio_plat_index(b), b);
		CHECK_EQ_U64(layout_bin(lo), b);
		CHECK_EQ_U64(layout_bin(lo + w - 1), b);
		CHECK_EQ_U64(fio_plat_value(b), lo + w / 2);
	}
	/* values across the whole range land in the bin fio would give them */
	for (v = 1; v < (1ull << 40); v += step) {
		step = v / 7 + 1;
		CHECK_EQ_U64(fio_plat_index(hist_index(v)), layout_bin(v));
	}
	/* from the last 64th of [2^33, 2^34) ns on, everything is fio's last bin; ours goes
	 * on to 2^44 */
	CHECK_EQ_U64(fio_plat_index(hist_index(1ull << 34)), FIO_PLAT_NR - 1);
	CHECK_EQ_U64(fio_plat_index(hist_index((1ull << 34) - (1ull << 27))), FIO_PLAT_NR - 1);
	CHECK_EQ_U64(fio_plat_index(hist_index((1ull << 34) - (1ull << 27) - 1)),
		     FIO_PLAT_NR - 2);
	CHECK(hist_index(1ull << 40) > FIO_PLAT_NR);
	CHECK_EQ_U64(fio_plat_index(HIST_NBUCKETS - 1), FIO_PLAT_NR - 1);
}

int main(void)
{
	RUN(t_keys_from_fio);
	RUN(t_same_layout);
	return test_done();
}
