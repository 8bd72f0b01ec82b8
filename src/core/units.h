/* units.h - parsing and printing sizes, counts and rates. Pure; thread-safe. */
#ifndef IOB_CORE_UNITS_H
#define IOB_CORE_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* Parse a dd(1) number: decimal digits with an optional multiplier suffix
 *   c=1 w=2 b=512 kB=1000 K=KiB=1024 MB=1000^2 M=MiB=1024^2 GB G GiB TB T TiB ...
 * (coreutils' table, k accepted for K), and products "AxB[xC...]".
 * Returns 0 and stores the value in *out, or -EINVAL (junk, empty, negative) or
 * -ERANGE (overflow of 64 bits). */
int units_parse_dd(const char *s, uint64_t *out);

/* Parse a size as the other subcommands take it: digits with an optional binary suffix
 * k/K, m/M, g/G, t/T (powers of 1024) and an optional trailing "B"/"iB".
 * A bare number is multiplied by default_unit (1 for bytes, 1<<20 for Bonnie's megabytes).
 * Returns 0, -EINVAL or -ERANGE as units_parse_dd. */
int units_parse_size(const char *s, uint64_t default_unit, uint64_t *out);

/* Checked arithmetic for every size times count (block size x blocks, MiB x 2^20 ...):
 * the result in *out and 0, or -ERANGE (and *out untouched) when it does not fit in 64
 * bits. units_mul_off also refuses a product past INT64_MAX, the largest file offset
 * (off_t). Pure; thread-safe. */
int units_mul_u64(uint64_t a, uint64_t b, uint64_t *out);
int units_add_u64(uint64_t a, uint64_t b, uint64_t *out);
int units_mul_off(uint64_t a, uint64_t b, uint64_t *out);
/* a * b, or UINT64_MAX when it does not fit (for space estimates that must not wrap). */
uint64_t units_mul_sat(uint64_t a, uint64_t b);

/* A double as an integer, for the formatters and importers, which must never cast a
 * value out of range (undefined behaviour, and output like -9223372036854775808):
 * truncated toward zero; NaN gives 0; below the range its low end, above it its high end
 * (infinities included). units_dtou64 rounds to nearest first when round is set. Pure. */
uint64_t units_dtou64(double v, int round);
long long units_dtoll(double v, long long lo, long long hi);

/* Parse an unsigned decimal integer, whole string. 0, -EINVAL or -ERANGE. */
int units_parse_u64(const char *s, uint64_t *out);

/* Format bytes as dd does in its closing line: "1.0 GB" (powers of 1000) into buf.
 * A unit ending in "/s" is formatted as dd's rate ("45.0 GB/s", "894 MB/s").
 * Returns buf. */
char *units_fmt_si(char *buf, size_t len, double value, const char *unit);

/* Format a byte count as dd's IEC figure: "1.0 GiB", "100 MiB", "1.1 MiB", "999 B".
 * Returns buf. */
char *units_fmt_iec_dd(char *buf, size_t len, uint64_t bytes);

/* Format bytes with binary prefixes: "1.00 GiB", "512 KiB", "17 B". Returns buf. */
char *units_fmt_bytes(char *buf, size_t len, double bytes);

/* Format a duration in ns for humans: "812 ns", "12.3 us", "4.56 ms", "1.234 s". */
char *units_fmt_ns(char *buf, size_t len, double ns);

#endif
