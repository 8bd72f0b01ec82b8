# mk/build.mk - the compile and link rules; called by the top Makefile once config.mk
# exists. Portable to GNU make and bmake (suffix rules only).
include config.mk

.SUFFIXES: .c .o

.c.o:
	$(CC) $(CFLAGS) -c -o $@ $<

$(OBJS): $(HDRS) config.mk src/config.h

# the live view includes curses.h: ncurses' own flags for that file alone
src/cmd/watch.o: src/cmd/watch.c
	$(CC) $(CFLAGS) $(CURSES_CFLAGS) -c -o $@ src/cmd/watch.c

libiob.a: $(LIBOBJS)
	rm -f $@
	ar rcs $@ $(LIBOBJS)

iobattery: src/main.o libiob.a $(PLUGINS)
	$(CC) $(LDFLAGS) -o $@ src/main.o libiob.a $(LIBS)

# the MPI transport as a plugin beside the binary (configure sets PLUGINS where MPI is
# found): only it links the MPI library, and comm.c opens it under a launcher
iobattery-mpi.so: src/comm/mpi.c src/comm/comm_int.h src/core/clock.h config.mk src/config.h
	$(CC) $(CFLAGS) $(MPI_CFLAGS) -DIOB_PLUGIN -fPIC -shared $(LDFLAGS) -o $@ \
		src/comm/mpi.c $(MPI_LIBS)

units: libiob.a
	@for t in $(UNITBINS); do \
		$(CC) $(CFLAGS) -Itests/unit $(LDFLAGS) -o $$t $$t.c libiob.a $(LIBS) || exit 1; \
	done

# bench programs (bench/*.c): measuring tools, not tests; `make bench` builds them.
bench/verify_speed: bench/verify_speed.c libiob.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ bench/verify_speed.c libiob.a $(LIBS)

bench/comm_overhead: bench/comm_overhead.c libiob.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ bench/comm_overhead.c libiob.a $(LIBS)

# tests/fuzz/fuzz_NAME.c with the replay driver -> tests/fuzz/bin/NAME (make check)
fuzz-replay: libiob.a
	@mkdir -p tests/fuzz/bin
	@for t in $(FUZZS); do \
		n=$${t#tests/fuzz/fuzz_}; n=$${n%.c}; \
		$(CC) $(CFLAGS) -Itests/fuzz $(LDFLAGS) -o tests/fuzz/bin/$$n $$t \
			tests/fuzz/replay.c libiob.a $(LIBS) || exit 1; \
	done

# the fault-injection shim of the tests (tests/fault/iobfault.c, LD_PRELOAD; Linux and
# glibc only): without the project's flags (no sanitizer in a preloaded library); where it
# does not build, tests/cli/fault_matrix.sh skips
fault-shim:
	@$(CC) -O2 -g -fPIC -shared -Wall -Wextra -o tests/fault/iobfault.so \
		tests/fault/iobfault.c -ldl 2>/dev/null || \
		echo "tests/fault/iobfault.so not built (needs Linux and glibc): fault tests skip"
