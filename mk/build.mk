# mk/build.mk - the compile and link rules; called by the top Makefile once config.mk
# exists. Portable to GNU make and bmake (suffix rules only).
include config.mk

# Quiet by default: one short line a file ("  CC  src/core/clock.o"); `make V=1` prints
# the full command lines. No conditionals: the variable's name is computed from V, which
# GNU make and bmake both expand ($(Q_) for V unset, $(Q_1) for V=1).
V =
Q_ = @
Q_0 = @
Q_1 =
Q = $(Q_$(V))
SAY_ = echo
SAY_0 = echo
SAY_1 = :
SAY = $(SAY_$(V))
# in a shell loop: the command line itself, with V=1 only
VSAY_ = :
VSAY_0 = :
VSAY_1 = echo
VSAY = $(VSAY_$(V))

.SUFFIXES: .c .o

.c.o:
	@$(SAY) "  CC      $@"
	$(Q)$(CC) $(CFLAGS) -c -o $@ $<

$(OBJS): $(HDRS) config.mk src/config.h

# the live view includes curses.h: ncurses' own flags for that file alone
src/cmd/watch.o: src/cmd/watch.c
	@$(SAY) "  CC      $@"
	$(Q)$(CC) $(CFLAGS) $(CURSES_CFLAGS) -c -o $@ src/cmd/watch.c

# the block-layer latency program (configure's HAVE_BPF): BPF_SKEL names its skeleton,
# made by mk/bpf.sh; empty without BPF, and devlat.c then compiles without it
src/observe/devlat.o: src/observe/devlat.c $(BPF_SKEL)
	$(CC) $(CFLAGS) $(BPF_CFLAGS) -c -o $@ src/observe/devlat.c

build/bpf/devlat.skel.h: src/observe/devlat.bpf.c src/observe/devlat_abi.h mk/bpf.sh
	sh mk/bpf.sh "$(BPF_CLANG)" "$(BPFTOOL)" src/observe/devlat.bpf.c build/bpf

libiob.a: $(LIBOBJS)
	@$(SAY) "  AR      $@"
	$(Q)rm -f $@
	$(Q)ar rcs $@ $(LIBOBJS)

iobattery: src/main.o libiob.a $(PLUGINS)
	@$(SAY) "  LINK    $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ src/main.o libiob.a $(LIBS)

# the MPI transport as a plugin beside the binary (configure sets PLUGINS where MPI is
# found): only it links the MPI library, and comm.c opens it under a launcher
iobattery-mpi.so: src/comm/mpi.c src/comm/comm_int.h src/core/clock.h config.mk src/config.h
	@$(SAY) "  LINK    $@"
	$(Q)$(CC) $(CFLAGS) $(MPI_CFLAGS) -DIOB_PLUGIN -fPIC -shared $(LDFLAGS) -o $@ \
		src/comm/mpi.c $(MPI_LIBS)

units: libiob.a
	@for t in $(UNITBINS); do \
		$(SAY) "  LINK    $$t"; \
		$(VSAY) $(CC) $(CFLAGS) -Itests/unit $(LDFLAGS) -o $$t $$t.c libiob.a $(LIBS); \
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
		$(SAY) "  LINK    tests/fuzz/bin/$$n"; \
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
