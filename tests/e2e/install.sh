#!/bin/sh
# make install and what it installs: `make install PREFIX=<tmp>` puts the binary, the manual
# page and bash's completion in place (and `make uninstall` takes them away); `man -l` renders
# the page with every command and every option its --help lists, in that command's section;
# and the completion script, sourced into bash, completes the command names, each command's
# options (every one its --help lists), an option's choices, an item of a comma list, and a
# report's file name. Usage: tests/e2e/install.sh (from anywhere; it installs this tree)
set -u
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

prefix=$tmp/prefix
bin=$prefix/bin/cgtorture page=$prefix/share/man/man1/cgtorture.1
comp=$prefix/share/bash-completion/completions/cgtorture
# a make of its own: not the jobs of a make that may have started this script
if ! MAKEFLAGS= make -s -C "$root" install PREFIX="$prefix" >"$tmp/make.log" 2>&1; then
	bad "make install PREFIX=$prefix: $(tail -3 "$tmp/make.log")"
fi
for f in "$bin" "$page" "$comp"; do
	[ -s "$f" ] || bad "make install did not install ${f#"$prefix"/}"
done
[ -x "$bin" ] && "$bin" --version | grep -q '^cgtorture ' || bad "the installed binary does not run"
[ "$fails" = 0 ] && ok "make install: bin/cgtorture, share/man/man1/cgtorture.1, share/bash-completion/completions/cgtorture"

# the commands, from the usage text; each one's options, from its own --help
commands=$("$bin" help | sed -n '/^$/q; s/^\(usage:\|      \) cgtorture \[\{0,1\}\([a-z]*\).*/\2/p')
[ "$(echo "$commands" | wc -l)" -ge 10 ] || bad "cannot read the commands from cgtorture help"
# (help --help is the overview, the run's options under it: help's own are --man and
# --completion, which its usage line names)
options() {
	[ "$1" = help ] && return
	"$bin" "$1" --help | sed -n 's/^  \(--[a-z][a-z-]*\).*/\1/p' | grep -vx -- --help
}

# the page: every command a section, every option of its --help in it
LC_ALL=C MANWIDTH=200 man -l "$page" >"$tmp/page.txt" 2>"$tmp/man.err" ||
	bad "man -l cannot render the page: $(head -3 "$tmp/man.err")"
[ -s "$tmp/man.err" ] && bad "man -l complains: $(head -3 "$tmp/man.err")"
grep -q '^CGTORTURE(1)' "$tmp/page.txt" || bad "the page has no CGTORTURE(1) heading"
for s in NAME SYNOPSIS DESCRIPTION COMMANDS 'EXIT STATUS'; do
	grep -qx "$s" "$tmp/page.txt" || bad "the page has no $s section"
done
nopts=0
for c in $commands; do
	awk -v c="$c" '/^   [a-z]/ { on = ($1 == c) } on' "$tmp/page.txt" >"$tmp/section"
	[ -s "$tmp/section" ] || bad "the page has no section for $c"
	for o in $(options "$c"); do
		nopts=$((nopts + 1))
		grep -q -- "^       $o\( \|$\)" "$tmp/section" || bad "the page's $c has no $o"
	done
done
[ "$fails" = 0 ] && ok "man -l: $(echo $commands | wc -w) commands, $nopts options of their --help, each in its command's section"

# the completion: COMP_WORDS as bash gives them, the function's COMPREPLY
complete_words() {
	LC_ALL=C bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _cgtorture
		 printf "%s\n" "${COMPREPLY[@]}"' sh "$comp" "$@" | LC_ALL=C sort | tr '\n' ' '
}
want() {
	got=$(complete_words "$@" | sed 's/ $//')
	shift
	if [ "$got" = "$WANT" ]; then
		ok "complete '$*' -> $got"
	else
		bad "complete '$*' -> '$got', want '$WANT'"
	fi
}
bash -c ". '$comp'; complete -p cgtorture" | grep -q -- '-F _cgtorture cgtorture$' ||
	bad "the script registers no completion for cgtorture"
WANT=compare want cgtorture com
WANT="eras explore" want cgtorture e
WANT="--reference --repeat" want cgtorture compare --re
WANT="--runs" want cgtorture explore --run
WANT="--stack --stall --starve --stats-interval --steps --stop-on" want cgtorture explore --st
WANT=$("$bin" eras | awk '{ print $1 }' | sort | tr '\n' ' ' | sed 's/ $//') \
	want cgtorture run --kernel ''
WANT="pct" want cgtorture explore --sched p
WANT="walk-from-exiting walk-leader-exec" want cgtorture run --bug walk-
WANT="rcu-mutex,rwlock rcu-mutex,rwlock-rpref rcu-mutex,rwsem" want cgtorture compare --locks rcu-mutex,rw
WANT="--quiet" want cgtorture --qu
WANT="bash" want cgtorture help --completion ''
touch "$tmp/report.json"
WANT="$tmp/report.json" want cgtorture replay "$tmp/rep"
for c in $commands; do
	o=$(options "$c" | sort | tr '\n' ' ')
	got=" $(complete_words cgtorture "$c" --) "
	for w in $o; do
		case $got in
		*" $w "*) ;;
		*) bad "completing '$c --' does not offer $w" ;;
		esac
	done
done
[ "$fails" = 0 ] && ok "completing 'CMD --' offers every option of CMD --help, for every command"

MAKEFLAGS= make -s -C "$root" uninstall PREFIX="$prefix" >/dev/null 2>&1 ||
	bad "make uninstall failed"
for f in "$bin" "$page" "$comp"; do
	[ -e "$f" ] && bad "make uninstall left ${f#"$prefix"/}"
done
[ "$fails" = 0 ] && ok "make uninstall: the three files gone"

tally install "all passed"
