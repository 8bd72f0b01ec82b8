# iobattery - works with GNU make (4.0+) and BSD make (bmake): no conditionals, no GNU
# functions. Variables come from config.mk, written by ./configure (run automatically).
#
#   make            configure (if needed) and build ./iobattery
#   make run        install missing packages, build, run the quick battery here
#   make check      install missing packages (incl. test tools), build, run every test
#   make check-slow the slow checks (tests/slow: the .deb, the MPICH build ...); CI runs them
#   make bench      side-by-side benchmarks against the real tools (bench/)
#   make SAN=1 ...  build with AddressSanitizer and UndefinedBehaviorSanitizer (a tree
#                   configured without them is configured again and rebuilt; a plain
#                   make keeps what the last configure chose: ./configure to go back)
#   make fuzz       every libFuzzer harness of tests/fuzz/ for FUZZ_SECONDS each (clang)
#   make install    the binary, man page, bash and zsh completion and docs under PREFIX
#                   (default /usr/local), staged under DESTDIR if set; make uninstall

# Sources one and two folders below src/ (src/workload/bonnie/...); ls skips empty globs.
# NAME.bpf.c are BPF programs (mk/bpf.sh compiles them for the kernel), not C sources.
SRCS != ls src/*.c src/*/*.c src/*/*/*.c 2>/dev/null | grep -v '\.bpf\.c$$'; true
BPFSRCS != ls src/*/*.bpf.c 2>/dev/null; true
HDRS != ls src/*/*.h src/*/*/*.h 2>/dev/null; true
LIBSRCS != ls src/*/*.c src/*/*/*.c 2>/dev/null | grep -v '\.bpf\.c$$'; true
UNITS != ls tests/unit/t_*.c tests/engine/t_*.c 2>/dev/null; true
FUZZS != ls tests/fuzz/fuzz_*.c 2>/dev/null; true
OBJS = ${SRCS:.c=.o}
LIBOBJS = ${LIBSRCS:.c=.o}
UNITBINS = ${UNITS:.c=}

# Install locations: override on the command line (make install PREFIX=/usr DESTDIR=...).
PREFIX = /usr/local
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR = $(PREFIX)/share/zsh/site-functions
DOCDIR = $(PREFIX)/share/doc/iobattery
PKGLIBDIR = $(PREFIX)/lib/iobattery
INSTALL_DIRS = "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)/man1" "$(DESTDIR)$(BASHCOMPDIR)" \
	"$(DESTDIR)$(ZSHCOMPDIR)" "$(DESTDIR)$(DOCDIR)" "$(DESTDIR)$(PKGLIBDIR)"

all: iobattery

config.mk src/config.h: configure VERSION
	@if [ -n "$(SAN)" ]; then ./configure --enable-san; else ./configure; fi

# config.mk is read by the sub-make, which is the only place that includes it.
iobattery: config.mk src/config.h $(SRCS) $(HDRS) $(BPFSRCS) mk/build.mk
	@sh mk/sanmode.sh "$(SAN)"
	@$(MAKE) -f mk/build.mk SRCS="$(SRCS)" OBJS="$(OBJS)" LIBOBJS="$(LIBOBJS)" \
		HDRS="$(HDRS)" UNITBINS="$(UNITBINS)" iobattery

units: iobattery $(UNITS) tests/unit/test.h tests/engine/engtest.h
	@$(MAKE) -f mk/build.mk SRCS="$(SRCS)" OBJS="$(OBJS)" LIBOBJS="$(LIBOBJS)" \
		HDRS="$(HDRS)" UNITBINS="$(UNITBINS)" units

# the fuzz harnesses linked with the plain replay driver: make check replays each corpus
fuzz-replay: iobattery $(FUZZS)
	@$(MAKE) -f mk/build.mk SRCS="$(SRCS)" OBJS="$(OBJS)" LIBOBJS="$(LIBOBJS)" \
		HDRS="$(HDRS)" UNITBINS="$(UNITBINS)" FUZZS="$(FUZZS)" fuzz-replay

fault-shim: iobattery tests/fault/iobfault.c
	@$(MAKE) -f mk/build.mk fault-shim

FUZZ_SECONDS = 60
fuzz: config.mk
	@scripts/install-deps fuzz
	@sh tests/fuzz/run-fuzz $(FUZZ_SECONDS)

deps:
	@scripts/install-deps build

deps-test:
	@scripts/install-deps test

run: deps
	@$(MAKE) iobattery
	./iobattery run
	./iobattery report --no-store -o iobattery-report.html iobattery-results.json

check: deps-test
	@$(MAKE) iobattery units fuzz-replay fault-shim
	@tests/run

# the checks that take minutes (tests/slow: the Debian package, the MPICH build, the
# file-system matrix, two MPI hosts, verify --result everywhere): CI runs them
check-slow: deps-test
	@$(MAKE) iobattery units fuzz-replay fault-shim
	@tests/run --slow

bench/verify_speed: iobattery bench/verify_speed.c
	@$(MAKE) -f mk/build.mk SRCS="$(SRCS)" OBJS="$(OBJS)" LIBOBJS="$(LIBOBJS)" \
		HDRS="$(HDRS)" UNITBINS="$(UNITBINS)" bench/verify_speed

bench/comm_overhead: iobattery bench/comm_overhead.c
	@$(MAKE) -f mk/build.mk SRCS="$(SRCS)" OBJS="$(OBJS)" LIBOBJS="$(LIBOBJS)" \
		HDRS="$(HDRS)" UNITBINS="$(UNITBINS)" bench/comm_overhead

install: iobattery
	@sh mk/install.sh install $(INSTALL_DIRS)

uninstall:
	@sh mk/install.sh uninstall $(INSTALL_DIRS)

bench: iobattery bench/verify_speed bench/comm_overhead
	@bench/run-all

clean:
	rm -f iobattery iobattery-mpi.so libiob.a src/*.o src/*/*.o src/*/*/*.o $(UNITBINS) bench/verify_speed \
		bench/comm_overhead
	rm -rf tests/fuzz/bin tests/fuzz/build build
	rm -f tests/fault/iobfault.so

distclean: clean
	rm -f config.mk src/config.h

.PHONY: all deps deps-test run check check-slow bench clean distclean units install uninstall \
	fuzz fuzz-replay fault-shim
