#!/bin/sh
# mk/bpf.sh CLANG BPFTOOL SRC OUTDIR - build a CO-RE BPF program and its skeleton:
#   OUTDIR/vmlinux.h        the running kernel's types, dumped by bpftool from its BTF
#                           (IOB_VMLINUX_BTF names another BTF file); made once, never
#                           committed: CO-RE relocates the program to the kernel it loads on
#   OUTDIR/NAME.bpf.o       SRC compiled by clang for the BPF target
#   OUTDIR/NAME.skel.h      `bpftool gen skeleton`: the object embedded, with typed access
#                           to its programs and global data (src/observe/devlat.c)
# Called by mk/build.mk when configure found clang, bpftool, libbpf and BTF (HAVE_BPF).
set -eu
clang=$1 bpftool=$2 src=$3 out=$4
name=$(basename "$src" .bpf.c)
btf=${IOB_VMLINUX_BTF:-/sys/kernel/btf/vmlinux}
case $(uname -m) in
x86_64|i?86) arch=x86 ;;
aarch64|arm64) arch=arm64 ;;
s390x) arch=s390 ;;
ppc64le|ppc64) arch=powerpc ;;
riscv64) arch=riscv ;;
*) arch=$(uname -m) ;;
esac
mkdir -p "$out"
if [ ! -s "$out/vmlinux.h" ]; then
	"$bpftool" btf dump file "$btf" format c > "$out/vmlinux.h.tmp"
	mv "$out/vmlinux.h.tmp" "$out/vmlinux.h"
fi
bpf_inc=$(pkg-config --cflags libbpf 2>/dev/null || true)
"$clang" -g -O2 -target bpf "-D__TARGET_ARCH_$arch" -I"$out" -Isrc $bpf_inc \
	-c "$src" -o "$out/$name.bpf.o"
"$bpftool" gen skeleton "$out/$name.bpf.o" name "${name}_bpf" > "$out/$name.skel.h.tmp"
mv "$out/$name.skel.h.tmp" "$out/$name.skel.h"
