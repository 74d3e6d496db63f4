#!/usr/bin/env bash
# Makes sure Debian's redis-server is installed (as root, when missing) and answering on 127.0.0.1:6379.
set -euo pipefail
if ! command -v redis-server >/dev/null 2>&1; then
  [ "$(id -u)" = 0 ] || { echo "redis-server is missing: install Debian's redis-server" >&2; exit 1; }
  # The same lock as wordpress/wp.sh: two installs at once would fight over dpkg's lock.
  exec 9>"${TMPDIR:-/tmp}/calendar-gateway-wordpress-apt.lock"
  flock 9
  if ! command -v redis-server >/dev/null 2>&1; then
    echo "installing redis-server…" >&2
    apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends redis-server redis-tools >&2
  fi
  exec 9>&-
fi
redis-cli -p 6379 ping >/dev/null 2>&1 ||
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save '' --appendonly no --dir "${TMPDIR:-/tmp}" >/dev/null
for _ in $(seq 100); do
  redis-cli -p 6379 ping >/dev/null 2>&1 && exit 0
  sleep 0.1
done
echo "redis-server did not answer on 127.0.0.1:6379" >&2
exit 1
