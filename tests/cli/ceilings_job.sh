# The tool's own limit of a job row is the job's own loop with the null engine at the
# row's settings (docs/methodology.md, "Ceilings"), not the runner's bare request path,
# which costs a third of it per request.
# 1. mmap reading 8 bytes at a time from a 1 MiB file in the page cache costs the loop's
#    own work and a copy of 8 bytes: within 10% of the null engine's rate or CPU time per
#    request, so tool_bound, with words naming the job's loop. Three tries: other work on
#    the machine can take the CPU from either measurement (the flag needs only one of the
#    rate and the CPU time per request within 10%, and a run under load can miss both).
# 2. psync reading the same kind of file 4 KiB at a time spends a system call and a 4 KiB
#    copy per request, many times the loop's own: not tool_bound, measured by the job's
#    loop too.
# 3. rate_iops=2000: the null measure leaves the rate out (else it would be held to the
#    same 2000 and the row would match it): not tool_bound, its limit above 10x its rate.
. tests/cli/lib
command -v jq > /dev/null || skip "jq missing"

job() {
	expect_exit 0 "$IOB" job --name=c --rw=read --size=1m --runtime=300ms --time_based \
		-d "$T" --no-store --format json "$@"
}
row='[.rows[] | select(.phase == "read")][0]'
words='the job.s own loop with the null engine, 100 ms: rw=read, depth 1, 1 thread'

ok=0
for try in 1 2 3; do
	job --ioengine=mmap --bs=8
	jq -e "$row | .ceiling.tool_settings | test(\"$words, bs 8\$\")" "$T/out" > /dev/null ||
		fail "the mmap row's limit is not the job's own loop: $(jq -c "$row.ceiling" "$T/out")"
	if jq -e "$row | .flags | index(\"tool_bound\")" "$T/out" > /dev/null; then
		ok=1
		break
	fi
	echo "try $try: not tool_bound: $(jq -c "$row | [.ops, .elapsed_ns, .cpu.cpu_ns_per_op,
		.ceiling.tool_ops_s, .ceiling.tool_cpu_ns_per_op]" "$T/out")"
done
# (a sanitizer build checks each byte the mmap engine copies, which the null engine never
# touches: the copy is no longer small beside the loop there, so only the limit's words
# are checked)
[ "$ok" = 1 ] || san_build ||
	fail "mmap at 8 bytes a request from the page cache is not tool_bound"

job --ioengine=psync --bs=4k
jq -e "$row | .ceiling.tool_settings | test(\"$words, bs 4096\$\")" "$T/out" > /dev/null ||
	fail "the psync row's limit is not the job's own loop: $(jq -c "$row.ceiling" "$T/out")"
jq -e "$row | (.flags | index(\"tool_bound\")) == null" "$T/out" > /dev/null ||
	fail "psync reads of 4 KiB are tool_bound: $(jq -c "$row | [.cpu, .ceiling]" "$T/out")"

job --ioengine=psync --bs=4k --rate_iops=2000
jq -e "$row | (.flags | index(\"tool_bound\")) == null and
	.ceiling.tool_ops_s > 10 * .ceiling.rate_ops_s" "$T/out" > /dev/null ||
	fail "a job held to 2000 IOPS is tool_bound or its limit was rate-held: $(jq -c \
		"$row | [.ops, .ceiling]" "$T/out")"
exit 0
