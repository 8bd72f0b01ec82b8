# The tool's own limit of a job row is the job's own loop with the null engine at the
# row's settings (docs/methodology.md, "Ceilings"), not the runner's bare request path,
# which costs a third of it per request.
# 1. mmap reading 8 bytes at a time from a 1 MiB file in the page cache costs the loop's
#    own work and a copy of 8 bytes: its limit is the job's loop with the null engine, in
#    words, and tool_bound is set exactly when the row's rate is at least 90% of that
#    limit's or its CPU time per request at most 1/0.9 of it (on this machine it usually
#    is; how close a row comes depends on the CPU each measure got, which no test can fix;
#    tests/unit/t_ceiling.c checks the rule itself). With libaio at iodepth=8 the words say
#    the null loop ran at depth 1.
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

job --ioengine=mmap --bs=8
jq -e "$row | .ceiling.tool_settings | test(\"$words, bs 8\$\")" "$T/out" > /dev/null ||
	fail "the mmap row's limit is not the job's own loop: $(jq -c "$row.ceiling" "$T/out")"
# the flag follows from the row's own figures, whichever way this machine's load took them
# (the CPU per request compared is the process's less the sampler thread's)
jq -e "$row | ((.cpu.user_s + .cpu.sys_s - (.sys.sampler_cpu_s // 0)) * 1e9 / .ops) as \$c |
	((.flags | index(\"tool_bound\")) != null) ==
	(.ceiling.rate_ops_s >= 0.9 * .ceiling.tool_ops_s or
	 (\$c > 0 and .ceiling.tool_cpu_ns_per_op > 0 and
	  \$c * 0.9 <= .ceiling.tool_cpu_ns_per_op))" "$T/out" > /dev/null ||
	fail "the mmap row's tool_bound does not follow from its figures: $(jq -c "$row |
		[.flags, .ops, .cpu, .sys.sampler_cpu_s, .ceiling]" "$T/out")"
if have_feature libaio && have_feature o_direct; then	# a depth the null loop cannot keep
	job --ioengine=libaio --iodepth=8 --bs=4k --direct=1
	jq -e "$row | .ceiling.tool_settings | test(\"depth 1 \\\\(null is synchronous\\\\)\")" \
		"$T/out" > /dev/null ||
		fail "libaio at depth 8: the words do not say the null loop ran at depth 1: $(jq -c \
			"$row.ceiling" "$T/out")"
fi

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
