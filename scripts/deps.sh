#!/bin/sh
# Check, and as root install, what cgtorture builds and tests with: Debian 12 packages only.
# Usage: scripts/deps.sh [--check]   (--check: never install, just report)
set -eu

# package:file-that-proves-it-is-there
needs="
make:/usr/bin/make
gcc:/usr/bin/gcc
clang:/usr/bin/clang
libclang-rt-14-dev:/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.tsan-x86_64.a
liburcu-dev:/usr/include/x86_64-linux-gnu/urcu/urcu-memb.h
libcriterion-dev:/usr/include/criterion/criterion.h
libjansson-dev:/usr/include/jansson.h
libck-dev:/usr/include/ck_rwlock.h
pkg-config:/usr/bin/pkg-config
python3:/usr/bin/python3
gnuplot-nox:/usr/bin/gnuplot-nox
parallel:/usr/bin/parallel
openssh-server:/usr/sbin/sshd
openssh-client:/usr/bin/ssh
rsync:/usr/bin/rsync
graphviz:/usr/bin/dot
chromium:/usr/bin/chromium
fonts-dejavu-core:/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
man-db:/usr/bin/man
"

missing=""
for n in $needs; do
	pkg=${n%%:*}
	file=${n#*:}
	[ -e "$file" ] || missing="$missing $pkg"
done

[ -z "$missing" ] && exit 0

if [ "${1:-}" != "--check" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	echo "deps: installing$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
	exit 0
fi
echo "cgtorture: missing packages:$missing" >&2
echo "install them with: sudo apt-get install -y$missing" >&2
exit 1
