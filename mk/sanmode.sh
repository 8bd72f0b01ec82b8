#!/bin/sh
# sanmode.sh SAN - called by the top Makefile before every build: with SAN set (make
# SAN=1) on a tree configured without sanitizers, run ./configure --enable-san again, so
# that config.mk changes and every object (which depends on it) is rebuilt with them.
# Without SAN it does nothing: the tree keeps what the last configure chose.
[ -n "${1:-}" ] || exit 0
grep -q '^SAN_BUILD = yes' config.mk 2>/dev/null && exit 0
echo "sanmode: configuring with --enable-san (SAN=$1)"
exec ./configure --enable-san
