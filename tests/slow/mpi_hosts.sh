# Ranks on two "hosts" (issue 23): network namespaces made here, each with its own host
# name (a UTS namespace) and a veth address, mpirun launching into them through Open
# MPI's rsh agent (a script around `ip netns exec`), the TCP transport between them.
# The result names each rank's host; a rank killed on one host ends the run on every host
# within 60 s with rank 0's result marked incomplete; the link to one host cut mid-phase
# ends the run everywhere within 60 s (Open MPI's runtime keepalive set to seconds, as
# docs/methodology.md says), rank 0's result written and marked incomplete (the gates'
# IOBATTERY_RANK_SILENCE under the keepalive), and leaves no rank running. Skips where
# namespaces cannot be made or the build has no Open MPI. Only the namespaces' own
# addresses are used.
. tests/cli/lib
. tests/cli/mpi_lib
IOBATTERY_RANK_SILENCE=""; export IOBATTERY_RANK_SILENCE
[ "$MPI_IMPL" = openmpi ] || skip "the rsh agent used here is Open MPI's"
is_root || skip "namespaces need root"
command -v ip >/dev/null 2>&1 && command -v unshare >/dev/null 2>&1 || skip "no ip or unshare"
cd "$T" || exit 1
ns=iobh$$
net=10.251.$(($$ % 250))
ip netns add "$ns-1" 2>/dev/null || skip "cannot make a network namespace here"
cleanup_hooks="$cleanup_hooks ip netns del $ns-1 2>/dev/null; ip netns del $ns-2 2>/dev/null;"
ip netns add "$ns-2" || fail "cannot make the second namespace"
ip link add "${ns}a" netns "$ns-1" type veth peer name "${ns}b" netns "$ns-2" ||
	skip "cannot make a veth pair here"
ip -n "$ns-1" addr add "$net.1/24" dev "${ns}a" && ip -n "$ns-2" addr add "$net.2/24" dev "${ns}b" &&
	ip -n "$ns-1" link set "${ns}a" up && ip -n "$ns-2" link set "${ns}b" up &&
	ip -n "$ns-1" link set lo up && ip -n "$ns-2" link set lo up || fail "cannot set up the link"
unshare --uts true 2>/dev/null || skip "cannot make a UTS namespace here"
# the rsh agent: [options] ADDRESS COMMAND...: the address's last number is the host
cat > agent <<EOF
#!/bin/sh
while [ \$# -gt 0 ]; do case \$1 in -*) shift ;; *) break ;; esac; done
h=\$1; shift
n=\${h##*.}
exec ip netns exec "$ns-\$n" unshare --uts sh -c 'hostname "host\$0"; exec sh -c "\$1"' "\$n" "\$*"
EOF
chmod +x agent
printf '%s.1 slots=1\n%s.2 slots=1\n' "$net" "$net" > hosts
mkdir d
# run_hosts CMD...: mpirun on host 1 (its namespace) with a rank on each host, 120 s at most
run_hosts() {
	timeout 120 ip netns exec "$ns-1" unshare --uts sh -c 'hostname host1; exec "$@"' sh \
		env OMPI_MCA_plm_rsh_agent="$T/agent" OMPI_MCA_btl=self,tcp \
		OMPI_MCA_btl_tcp_if_include="$net.0/24" OMPI_MCA_oob_tcp_if_include="$net.0/24" \
		OMPI_MCA_oob_tcp_keepalive_time=5 OMPI_MCA_oob_tcp_keepalive_intvl=2 \
		OMPI_MCA_oob_tcp_keepalive_probes=3 \
		"$MPIRUN" --hostfile "$T/hosts" -np 2 --map-by node -x IOBATTERY_RANK_SILENCE "$@"
}
# host_pid N: the pid of the iobattery rank in host N's namespace
host_pid() {
	for p in $(ip netns pids "$ns-$1"); do
		case $(tr '\0' ' ' < /proc/$p/cmdline 2>/dev/null) in
		"$IOB "*) echo "$p"; return ;;
		esac
	done
}

# each rank's host is named in the result
run_hosts "$IOB" dd if=/dev/zero of="$T/d/f" bs=64k count=16 --no-store \
	--format json > r1.json 2> r1.err || { cat r1.err >&2; fail "the two-host run failed"; }
grep -q '"host": "host1"' r1.json && grep -q '"host": "host2"' r1.json ||
	{ cat r1.json >&2; fail "the result does not name each rank's host"; }
rm -f d/f.0 d/f.1	# dd's outputs, one per rank
[ -z "$(ls -A d)" ] || fail "left: $(ls -A d)"

# a rank killed on host 2 mid-phase: the run ends within 60 s, rank 0's result incomplete
(run_hosts "$IOB" fsync -s 5 -f "$T/d" --no-store --format json > r2.json \
	2> r2.err; echo $? > r2.rc) &
i=0
while [ -z "$(host_pid 2)" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
sleep 2
p=$(host_pid 2)
[ -n "$p" ] || fail "no rank on host 2"
kill -KILL "$p"
start=$(date +%s)
while [ ! -s r2.rc ] && [ $(($(date +%s) - start)) -lt 90 ]; do sleep 0.5; done
[ -s r2.rc ] || fail "the run went on after a rank was killed"
[ $(($(date +%s) - start)) -le 60 ] || fail "the run took over 60 s to end"
grep -q '"incomplete": true' r2.json || { cat r2.err >&2; fail "rank 0's result is not incomplete"; }
[ -z "$(host_pid 1)" ] || fail "a rank still runs on host 1"
rm -rf d; mkdir d

# the link to host 2 cut mid-phase: the run ends within 60 s on both hosts; with
# IOBATTERY_RANK_SILENCE below the runtime's keepalive, rank 0 gives up on the silent
# rank first and writes its result, marked incomplete, while mpirun still forwards it
IOBATTERY_RANK_SILENCE=4
(run_hosts "$IOB" fsync -s 5 -f "$T/d" --no-store --format json > r3.json \
	2> r3.err; echo $? > r3.rc) &
i=0
while [ -z "$(host_pid 2)" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
sleep 2
ip -n "$ns-2" link set "${ns}b" down
start=$(date +%s)
while [ ! -s r3.rc ] && [ $(($(date +%s) - start)) -lt 90 ]; do sleep 0.5; done
[ -s r3.rc ] || fail "the run went on after the link was cut"
[ $(($(date +%s) - start)) -le 60 ] || fail "the run took over 60 s to end"
sleep 3
[ -z "$(host_pid 1)$(host_pid 2)" ] || fail "a rank still runs after the link was cut"
grep -q '"incomplete": true' r3.json || { cat r3.err >&2; fail "no incomplete result after the cut"; }
grep -q '"error": ".*rank 1 sent no word within IOBATTERY_RANK_SILENCE' r3.json ||
	{ cat r3.err >&2; fail "the result does not say which rank fell silent"; }
grep -q "stopping: rank 1 on host2 sent no word" r3.err || fail "no message naming rank 1"
[ -z "$(ls -A d)" ] || fail "left after the cut: $(ls -A d)"
exit 0
