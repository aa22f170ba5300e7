#!/bin/sh
# make check-layers: the tree as it is passes, and what it exists to refuse is refused: a call
# from a lower layer to a higher one, two files of one folder that call each other round, and
# a folder in no layer. Each mistake is put, on purpose, into a copy of the built tree.
# Usage: tests/e2e/layers.sh OBJDIR LAYER...
set -u
. "$(dirname "$0")/lib.sh"
objdir=$1
shift
top=$(pwd)

out=$(scripts/check-layers "$objdir" "$@" 2>&1) && ok "the tree: $out" || bad "the tree:
$out"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# a copy to spoil: the sources (linked) and the objects (copied)
mkdir -p "$tmp/src" "$tmp/obj/src"
for d in src/*/; do
	l=$(basename "$d")
	mkdir -p "$tmp/src/$l" "$tmp/obj/src/$l"
	ln -s "$top/$d"*.c "$tmp/src/$l/"
	cp "$objdir/src/$l/"*.o "$tmp/obj/src/$l/" 2>/dev/null
done

# the spoiled copy's check: its output and status
expect() {
	out=$(cd "$tmp" && "$top/scripts/check-layers" obj "$@" 2>&1)
	rc=$?
}
spoil() {	# spoil FILE.c CODE: one more source and its object
	mkdir -p "$(dirname "$tmp/$1")" "$(dirname "$tmp/obj/$1")"
	printf '%s\n' "$2" >"$tmp/$1"
	cc -c -o "$tmp/obj/${1%.c}.o" "$tmp/$1"
}
check() {	# check WHAT PATTERN LAYER...
	what=$1 pattern=$2
	shift 2
	expect "$@"
	if [ $rc = 1 ] && printf '%s\n' "$out" | grep -q "$pattern"; then
		ok "$what refused: $(printf '%s\n' "$out" | grep "$pattern" | head -1)"
	else
		bad "$what: status $rc, output:
$out"
	fi
}

spoil src/core/upward.c 'int cgt_run(const void *cfg, void *res);
int upward(void) { return cgt_run(0, 0); }'
check "core calling the run layer" \
	'src/core/upward.o (core) calls cgt_run, defined in src/run/run.o (run): a higher layer' "$@"
rm "$tmp/src/core/upward.c" "$tmp/obj/src/core/upward.o"

spoil src/report/round_a.c 'void round_b(void); void round_a(void) { round_b(); }'
spoil src/report/round_b.c 'void round_a(void); void round_b(void) { round_a(); }'
check "a circle inside report/" 'round_a.o and src/report/round_b.o call each other round' "$@"
rm -f "$tmp/src/report/round_a.c" "$tmp/src/report/round_b.c" \
	"$tmp/obj/src/report/round_a.o" "$tmp/obj/src/report/round_b.o"

spoil src/extra/lost.c 'int lost(void) { return 0; }'
check "a folder in no layer" 'src/extra/ is in no layer' "$@"

tally layers
