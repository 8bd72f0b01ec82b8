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

iobattery: src/main.o libiob.a
	$(CC) $(LDFLAGS) -o $@ src/main.o libiob.a $(LIBS)

units: libiob.a
	@for t in $(UNITBINS); do \
		$(CC) $(CFLAGS) -Itests/unit $(LDFLAGS) -o $$t $$t.c libiob.a $(LIBS) || exit 1; \
	done

# bench programs (bench/*.c): measuring tools, not tests; `make bench` builds them.
bench/verify_speed: bench/verify_speed.c libiob.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ bench/verify_speed.c libiob.a $(LIBS)
