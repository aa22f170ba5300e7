# shellcheck shell=sh
# Sourced first by each tests/e2e script: one convention for its checks. Each check says
# "ok:   WHAT" or "FAIL: WHAT" (bad counts it); tally NAME [WORDS] prints the last line,
# "NAME: WORDS" or "NAME: N failure(s)", and gives the script its status.
fails=0 checks=0
ok() { echo "ok:   $*"; checks=$((checks + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); checks=$((checks + 1)); }
tally() {
	if [ "$fails" = 0 ]; then
		echo "$1: ${2:-all checks passed}"
	else
		echo "$1: $fails failure(s)"
	fi
	[ "$fails" = 0 ]
}
