#!/usr/bin/env bash
# Makes sure Debian's redis-server is installed (as root, when missing) and answering on 127.0.0.1:6379.
set -euo pipefail
bash "$(dirname "$0")/apt-install.sh" redis-server redis-server redis-tools
redis-cli -p 6379 ping >/dev/null 2>&1 ||
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save '' --appendonly no --dir "${TMPDIR:-/tmp}" >/dev/null
for _ in $(seq 100); do
  redis-cli -p 6379 ping >/dev/null 2>&1 && exit 0
  sleep 0.1
done
echo "redis-server did not answer on 127.0.0.1:6379" >&2
exit 1
