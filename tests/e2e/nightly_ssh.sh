#!/bin/sh
# The nightly over several machines as stress/README.md ("Sharding") runs it, for real: an
# sshd started here on 127.0.0.1 (its own host and user keys, a free high port) stands for
# host1 and host2; GNU parallel --sshlogin runs the two shards of a night there in a built
# checkout, --return brings their folders back, and stress/merge of them must be the same
# night as the two shards run here. Quick scenarios replace the night's (about 25 s).
# Needs openssh-server, openssh-client, rsync and parallel (scripts/deps.sh installs them).
# Usage: tests/e2e/nightly_ssh.sh BUILD_DIR   (holding plain/cgtorture)
set -u
. "$(dirname "$0")/lib.sh"
dir=$(cd "${1:?usage: tests/e2e/nightly_ssh.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
sshd_pid=
cleanup() {
	if [ -n "$sshd_pid" ]; then
		kill "$sshd_pid" 2>/dev/null
		wait "$sshd_pid" 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
# dash runs the EXIT trap on exit only: a signal exits, so sshd is stopped then too
trap 'exit 1' HUP INT TERM

# a failure the rest cannot run without
stop() {
	bad "$*"
	echo "nightly-ssh: $fails failure(s)"
	exit 1
}

# check WHAT ACTUAL EXPECTED
check() {
	if [ "$2" = "$3" ]; then ok "$1"; else bad "$1: got '$2', want '$3'"; fi
}

# night NIGHT_DIR: what two runs of one night share in summary.txt: each cell's status, id,
# expectation, seed and planned time (not its time or story, which vary), and the last line
night() {
	awk '/^status  cell/ { t = 1; next } t && /^$/ { t = 0 } t { print $1, $2, $3, $4, $5 }
		/^Summary: / { print }' "$1/summary.txt"
}

for need in /usr/sbin/sshd:openssh-server ssh:openssh-client ssh-keygen:openssh-client \
	rsync:rsync parallel:parallel; do
	command -v "${need%:*}" >/dev/null ||
		stop "${need%:*} missing: install ${need#*:} (scripts/deps.sh does)"
done

# --- the keys: sshd's host key, known to the client; the user's, authorized by sshd
k=$tmp/ssh
mkdir "$k"
{ ssh-keygen -q -t ed25519 -N '' -C cgtorture-test-host -f "$k/host_key" &&
	ssh-keygen -q -t ed25519 -N '' -C cgtorture-test-user -f "$k/id" &&
	cp "$k/id.pub" "$k/authorized_keys"; } || stop "ssh-keygen failed"
user=$(id -un)

# --- sshd on a port the kernel says is free; should another process take it before sshd
# binds it, sshd exits and another port is tried
# (as root, sshd wants its privilege separation folder, which Debian's ssh service makes)
[ "$(id -u)" != 0 ] || mkdir -p /run/sshd
# Without PAM, sshd refuses an account whose password field begins with "!" (locked), as
# some images leave root; PAM's account check lets a key in there
pam=no
case "$(getent shadow "$user" 2>/dev/null | cut -d: -f2)" in !*) pam=yes ;; esac
for _ in 1 2 3; do
	port=$(python3 -c '
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])')
	# PidFile: not the system sshd's; StrictModes no: the keys are in /tmp, which anyone may
	# write to
	cat >"$k/sshd_config" <<-EOF
		ListenAddress 127.0.0.1
		Port $port
		HostKey $k/host_key
		AuthorizedKeysFile $k/authorized_keys
		PidFile $k/sshd.pid
		AllowUsers $user
		PermitRootLogin prohibit-password
		PubkeyAuthentication yes
		PasswordAuthentication no
		KbdInteractiveAuthentication no
		UsePAM $pam
		StrictModes no
	EOF
	/usr/sbin/sshd -f "$k/sshd_config" -D -e >"$k/sshd.log" 2>&1 &
	sshd_pid=$!
	# up: sshd says it listens; gone: it exited (a zombie until waited for); or 20 s pass
	state=timeout
	end=$(($(date +%s) + 20))
	while [ "$(date +%s)" -lt "$end" ]; do
		if grep -qF "Server listening on 127.0.0.1 port $port." "$k/sshd.log"; then
			state=up
			break
		fi
		st=$(cut -d' ' -f3 "/proc/$sshd_pid/stat" 2>/dev/null)
		if [ -z "$st" ] || [ "$st" = Z ]; then
			state=gone
			break
		fi
		sleep 0.1
	done
	[ "$state" = up ] && break
	kill "$sshd_pid" 2>/dev/null
	wait "$sshd_pid" 2>/dev/null
	sshd_pid=
	grep -q 'Address already in use' "$k/sshd.log" || break
done
[ "$state" = up ] || stop "sshd (openssh-server) did not start on 127.0.0.1:$port ($state):" \
	"$(tail -1 "$k/sshd.log")"
ok "sshd listening on 127.0.0.1:$port"

# --- host1 and host2, both this sshd, named in an ssh config file as a user's ~/.ssh/config
# names them (-F: the test reads neither ~/.ssh nor /etc/ssh)
cat >"$k/config" <<EOF
Host host1 host2
	HostName 127.0.0.1
	Port $port
	User $user
	IdentityFile $k/id
	IdentitiesOnly yes
	UserKnownHostsFile $k/known_hosts
	StrictHostKeyChecking yes
	BatchMode yes
	ConnectTimeout 20
	LogLevel ERROR
EOF
echo "[127.0.0.1]:$port $(cat "$k/host_key.pub")" >"$k/known_hosts"
out=$(ssh -F "$k/config" host1 echo logged in 2>&1)
[ "$out" = "logged in" ] || stop "ssh host1 did not log in: $out; sshd: $(tail -1 "$k/sshd.log")"
ok "ssh host1: the user key logs in, the host key is known"

# --- the hosts' checkout (one folder: both hosts are this machine): stress/ as in this tree,
# the build, and quick scenarios in place of the night's
co=$tmp/remote/cgtorture
mkdir -p "$co/stress/scenarios" "$co/build/plain"
cp -R "$here/stress/nightly" "$here/stress/merge" "$here/stress/cgtnight" "$co/stress/"
ln -s "$dir/plain/cgtorture" "$co/build/plain/cgtorture"
cat >"$co/stress/scenarios/mini.scn" <<'EOF'
# two clean cells
walk:     for_each
lock:     rwsem mutex
duration: 1s
options:  --threads 64
EOF
cat >"$co/stress/scenarios/wrong.scn" <<'EOF'
# the buggy walk expected to pass: FAIL, with its report to bring back
walk:     while_each
duration: 2s
options:  --threads 64 --perturb 100 --swarm off
EOF

# --- the reference: the two shards run here, one after the other, and merged
mkdir "$tmp/local" "$tmp/back"
for s in 1 2; do
	(cd "$co" && stress/nightly --budget 2h --seed 42 --shard $s/2 --out "$tmp/local/night-$s") \
		>"$tmp/local/$s.log" 2>&1
done
"$co/stress/merge" --out "$tmp/local/merged" "$tmp/local/night-1" "$tmp/local/night-2" \
	>/dev/null 2>&1
check "here: two shards merged (exit status, summary's last line)" \
	"$? | $(tail -1 "$tmp/local/merged/summary.txt")" "1 | Summary: 2 passed, 1 failed"

# --- the documented command, from a folder the shards' folders come back to (PARALLEL_SSH:
# the ssh parallel and its rsync use; --workdir absolute: the login's home is not the test's)
(cd "$tmp/back" && PARALLEL_SSH="ssh -F $k/config" parallel --will-cite --joblog "$tmp/joblog" \
	--sshlogin host1,host2 --workdir "$co" --return night-{} \
	stress/nightly --budget 2h --seed 42 --shard {}/2 --out night-{} ::: 1 2) >"$tmp/par.log" 2>&1
check "parallel: exit status 1 (one shard has the failing cell)" "$?" 1
check "parallel: a shard on each host" \
	"$(awk 'NR > 1 { print $2 }' "$tmp/joblog" | sort | tr '\n' ' ')" "host1 host2 "
check "ssh: the shards ran in the hosts' checkout, which keeps their folders" \
	"$(find "$co" -maxdepth 1 -name 'night-*' | wc -l)" 2
check "--return: both shards' folders back" \
	"$(find "$tmp/back" -maxdepth 2 -name summary.txt | wc -l)" 2
check "--return: the failing cell's report with them" \
	"$(find "$tmp/back"/night-*/cells/wrong.while_each.plain -name report.json | wc -l)" 1
"$co/stress/merge" --out "$tmp/back/merged" "$tmp/back/night-1" "$tmp/back/night-2" \
	>"$tmp/merge.log" 2>&1
check "merge: exit status 1, as here" "$?" 1
check "merge: the same night as here (cells, seeds, statuses, summary line)" \
	"$(night "$tmp/back/merged")" "$(night "$tmp/local/merged")"
[ "$fails" = 0 ] || sed 's/^/    /' "$tmp/par.log" "$tmp/merge.log" "$k/sshd.log"

tally nightly-ssh
