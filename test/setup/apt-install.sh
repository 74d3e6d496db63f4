#!/usr/bin/env bash
# apt-install.sh COMMAND PACKAGE…: installs Debian's PACKAGEs (as root) when COMMAND is not on the PATH.
set -euo pipefail
command="$1"
shift
command -v "$command" >/dev/null 2>&1 && exit 0
[ "$(id -u)" = 0 ] || { echo "$command is missing: install Debian's $*" >&2; exit 1; }
# The same lock as wordpress/wp.sh: two installs at once would fight over dpkg's lock.
exec 9>"${TMPDIR:-/tmp}/calendar-gateway-wordpress-apt.lock"
flock 9
if ! command -v "$command" >/dev/null 2>&1; then
  echo "installing $*…" >&2
  apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >&2
fi
