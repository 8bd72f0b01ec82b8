# --version: the version, then the features built in and left out, which agree with
# configure's src/config.h; a --posix-only build has none of the Linux extras.
. tests/cli/lib
expect_exit 0 "$IOB" --version
head -n 1 "$T/out" | grep -Eq '^iobattery [0-9]+\.[0-9]+\.[0-9]+' || fail "no version line"
expect_out "built with:"
expect_out "built without:"
[ "$(head -n 1 "$T/out")" = "iobattery $(cat VERSION)" ] || fail "version is not VERSION's"
[ -f src/config.h ] || skip "no src/config.h (run from the source tree)"

# feature:macro pairs; each feature is on exactly when configure defined the macro
bad=0
for pair in io_uring:HAVE_LIBURING libaio:HAVE_LIBAIO mmap:HAVE_MMAP libpq:HAVE_LIBPQ \
	cachestat:HAVE_CACHESTAT mincore:HAVE_MINCORE copy_file_range:HAVE_COPY_FILE_RANGE \
	sendfile:HAVE_SENDFILE fiemap:HAVE_FIEMAP xattr:HAVE_XATTR syncfs:HAVE_SYNCFS \
	punch_hole:HAVE_PUNCH_HOLE blkdiscard:HAVE_BLKDISCARD \
	o_direct:HAVE_O_DIRECT diskstats:HAVE_DISKSTATS procstat:HAVE_PROC_STAT \
	waitstate:HAVE_PROC_TASKS procfs_sysinfo:HAVE_LINUX_PROCFS devstat:HAVE_DEVSTAT \
	cp_time:HAVE_KERN_CP_TIME sysctl:HAVE_SYSCTLBYNAME posix_only:IOB_POSIX_ONLY; do
	f=${pair%%:*} m=${pair#*:}
	grep -q "^#define $m " src/config.h && want=1 || want=0
	have_feature "$f" && got=1 || got=0
	grep -Eq "^built (with|without):(.* )?$f( |\$)" "$T/out" || { echo "not listed: $f"; bad=1; }
	[ $want = $got ] || { echo "$f: config.h says $want, --version says $got"; bad=1; }
done
[ $bad = 0 ] || fail "--version disagrees with src/config.h"

if have_feature posix_only; then
	for f in io_uring libaio cachestat copy_file_range sendfile fiemap xattr syncfs \
		punch_hole blkdiscard \
		diskstats procstat waitstate procfs_sysinfo; do
		have_feature $f && fail "--posix-only build with the Linux extra $f"
	done
	echo "a --posix-only build: no Linux extras"
fi
exit 0
