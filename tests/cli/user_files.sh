# A directory holding the user's files comes out byte-identical after every command
# has run in it, and nothing of ours is left.
. tests/cli/lib
d="$T/data"
mkdir -p "$d/sub"
head -c 100000 /dev/urandom > "$d/a.bin"
echo "notes" > "$d/notes.txt"
echo "deep" > "$d/sub/x"
ln -s a.bin "$d/link"
(cd "$d" && find . -type f -exec sha256sum {} + | sort) > "$T/before"
ls -la "$d" | awk '{print $1, $NF}' > "$T/ls_before"

expect_exit 0 "$IOB" run --dir "$d" --size 8m --quiet --no-json
expect_exit 0 "$IOB" dd if="$d/a.bin" of=/dev/null bs=4k
expect_exit 0 "$IOB" cp "$d/a.bin" "$T/copy"
expect_exit 2 "$IOB" dd if=/dev/zero of="$d/notes.txt" bs=1k count=1
expect_exit 2 "$IOB" cp "$d/a.bin" "$d/notes.txt"
expect_exit 2 "$IOB" dd if=/dev/zero of="$d/link" bs=1k count=1 --overwrite
expect_exit 2 "$IOB" run --dir "$d" --size 0
expect_out "bad --size"
expect_exit 2 "$IOB" run --dir "$d" extra

(cd "$d" && find . -type f -exec sha256sum {} + | sort) > "$T/after"
cmp -s "$T/before" "$T/after" || fail "user files changed"
ls -la "$d" | awk '{print $1, $NF}' > "$T/ls_after"
cmp -s "$T/ls_before" "$T/ls_after" || { diff "$T/ls_before" "$T/ls_after"; fail "directory changed"; }
no_scratch "$d"
exit 0
