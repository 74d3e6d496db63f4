#!/usr/bin/env bash
# Starts, stops and reports a private local WordPress (own MariaDB + php -S) seeded with the sample calendar.
# Usage: wordpress/wp.sh start [--port N] [--mapping FILE] [--gateway URL] | stop | status | crash-php | start-php
#   --gateway URL: send the companion plugin's change notifications to the gateway at URL (its base URL or its
#   …/calendar-gateway/v1/notify), signed with WEBHOOK_SECRET (from the environment, else made once per state dir).
#   crash-php: SIGKILL php -S and its workers mid-request, as a crash would (MariaDB keeps running);
#   start-php: serve the site again on its recorded port. The fault tests use both.
# Env: WP_STATE_DIR (default <repo>/.wordpress), WP_PORT (8080), WP_USERS_PASSWORD, WP_LOGIN_PASSWORD,
#   WP_GATEWAY_URL (= --gateway), WEBHOOK_SECRET, WP_SKIP_SEED=1.
# stdout carries only the KEY=value lines (UPSTREAM_URL, UPSTREAM_AUTH, WP_ADMIN_URL, WP_LOGIN_PASSWORD, and with a
# gateway WEBHOOK_URL, WEBHOOK_SECRET); progress and errors go to stderr.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
export PATH="$ROOT/node_modules/.bin:$PATH" # Node 24 from the npm `node` package runs seed.ts

log() { echo "wordpress: $*" >&2; }
die() {
  echo "wordpress: ERROR: $*" >&2
  exit 1
}
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

cmd=${1:-}
[ $# -gt 0 ] && shift
PORT=${WP_PORT:-8080}
MAPPING=$ROOT/mappings/tec.json
GATEWAY=${WP_GATEWAY_URL:-}
while [ $# -gt 0 ]; do
  case $1 in
    --port) PORT=${2:?--port needs a value}; shift 2 ;;
    --port=*) PORT=${1#--port=}; shift ;;
    --mapping) MAPPING=${2:?--mapping needs a value}; shift 2 ;;
    --mapping=*) MAPPING=${1#--mapping=}; shift ;;
    --gateway) GATEWAY=${2:?--gateway needs a URL}; shift 2 ;;
    --gateway=*) GATEWAY=${1#--gateway=}; shift ;;
    *) die "unknown argument '$1' (usage: wp.sh start [--port N] [--mapping FILE] [--gateway URL] | stop | status)" ;;
  esac
done
[[ $PORT =~ ^[0-9]+$ ]] || die "port must be a number, got '$PORT'"

STATE=${WP_STATE_DIR:-$ROOT/.wordpress}
mkdir -p "$STATE"
STATE=$(cd "$STATE" && pwd)
# MariaDB runs as user mysql, which must be able to walk down to its files. Under a private (0700) directory, such
# as a `mktemp -d` checkout, it cannot: the database then lives in /var/tmp, in a directory named after the state dir.
[ "$(id -u)" = 0 ] && chmod go+x "$STATE" # mktemp -d makes 0700 dirs; this one is ours
reachable() {
  local d=$1
  while [ "$d" != / ]; do
    [ -n "$(find "$d" -maxdepth 0 -perm -o+x)" ] || return 1
    d=$(dirname "$d")
  done
}
# Where databases go when the state dir is out of mysql's reach: the FHS place for temporary files kept across reboots.
SHARED_TMP=/var/tmp
if [ "$(id -u)" != 0 ] || reachable "$STATE"; then
  DBHOME=$STATE
else
  DBHOME=$SHARED_TMP/calendar-gateway-wp-$(printf %s "$STATE" | sha256sum | cut -c1-12)
  mkdir -p "$DBHOME" && chmod 755 "$DBHOME"
  printf '%s\n' "$STATE" >"$DBHOME/owner" # lets a later start remove it once that checkout is deleted
fi
RUN=$DBHOME/run # everything mariadbd writes lives here, owned by mysql (pitfall 11)
DB=$DBHOME/db
SOCK=$RUN/mysqld.sock
SITE=$STATE/site
# Unix socket paths are limited to 107 bytes; a deep temp dir would otherwise fail deep inside mariadbd.
[ ${#SOCK} -lt 107 ] || die "state dir path too long for a unix socket ($SOCK); use a shorter WP_STATE_DIR"

# A killed php -S worker stays a zombie until its parent reaps it; kill -0 alone would call it alive.
alive() {
  [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null || return 1
  [ "$(ps -o stat= -p "$1" 2>/dev/null | cut -c1)" != Z ]
}
# A recorded pid counts only while its arguments still name our directory ($2): after a reboot the number may
# belong to something else, which stop must never kill. ("$STATE/site", not "$STATE": state dirs may nest.)
ours() {
  local pid
  pid=$(cat "$1" 2>/dev/null || true)
  [ -n "$pid" ] && ps -o args= -p "$pid" 2>/dev/null | grep -qF -- "$2 " && echo "$pid"
  return 0
}
php_pid() { ours "$STATE/php.pid" "-t $SITE"; }
db_pid() { ours "$RUN/mysqld.pid" "--datadir=$DB"; }
db_ping() { mariadb-admin --no-defaults --socket="$SOCK" -uroot ping >/dev/null 2>&1; }
http_ok() { curl -fsS -o /dev/null --max-time 5 "http://127.0.0.1:$1/wp-json/" 2>/dev/null; }

# Stops a pid and waits for it; TERM first, KILL after $2 seconds.
stop_pid() {
  local pid=$1 wait_s=$2 i
  alive "$pid" || return 0
  kill "$pid" 2>/dev/null || true
  for ((i = 0; i < wait_s * 20; i++)); do
    alive "$pid" || return 0
    sleep 0.05
  done
  log "pid $pid did not stop in ${wait_s}s, killing it"
  kill -9 "$pid" 2>/dev/null || true
}

stop_all() {
  local pid child children
  pid=$(php_pid)
  if alive "$pid"; then
    # php -S workers outlive their parent (pitfall 8): collect and stop them first. `ps` exits 1 with no
    # children, which must not end the script under set -e (pitfall 10).
    children=$(ps -o pid= --ppid "$pid" || true)
    for child in $children; do kill "$child" 2>/dev/null || true; done
    for child in $children; do stop_pid "$child" 5; done
    stop_pid "$pid" 5
    log "php -S stopped (pid $pid)"
  fi
  rm -f "$STATE/php.pid"
  pid=$(db_pid)
  if alive "$pid"; then
    stop_pid "$pid" 60
    log "mariadbd stopped (pid $pid)"
  fi
}

# Databases kept in $SHARED_TMP for checkouts that no longer exist (a deleted `mktemp -d` clone) are removed, unless
# a server still runs on one.
sweep_orphans() {
  local d owner
  for d in "$SHARED_TMP"/calendar-gateway-wp-*; do
    # Another start's sweep (the suite's lanes start at once) may remove it between the test and the read.
    owner=$(cat "$d/owner" 2>/dev/null) || continue
    [ -d "$owner" ] && continue
    pgrep -f -- "--datadir=$d/db" >/dev/null && continue
    rm -rf "$d" && log "removed the database of a deleted checkout ($owner)"
  done
}

print_lines() {
  # shellcheck disable=SC1091
  . "$STATE/env"
  echo "UPSTREAM_URL=$UPSTREAM_URL"
  # The gateway's service account is the editor (docs/setup.md): enough for drafts and writes, no site settings.
  echo "UPSTREAM_AUTH=editor:$WP_USERS_PASSWORD"
  echo "WP_ADMIN_URL=${UPSTREAM_URL%/wp-json}/wp-admin/"
  echo "WP_LOGIN_PASSWORD=$WP_LOGIN_PASSWORD"
  [ ! -f "$STATE/webhook" ] || cat "$STATE/webhook"
}

packages_present() {
  command -v php >/dev/null && command -v mariadbd >/dev/null && [ -d /usr/share/wordpress ] &&
    php -m | grep -qi '^mysqli$' && php -m | grep -qi '^gd$'
}

ensure_packages() {
  packages_present && return 0
  [ "$(id -u)" = 0 ] || die "packages missing and not root: install wordpress php-cli php-mysql php-gd mariadb-server"
  # Two state dirs starting at once (the tec and custom test projects) must not race for dpkg's lock.
  exec 9>"${TMPDIR:-/tmp}/calendar-gateway-wordpress-apt.lock"
  flock 9
  if ! packages_present; then
    local t0
    t0=$(now)
    log "installing Debian packages (wordpress php-cli php-mysql php-gd mariadb-server)…"
    apt-get update -q >&2
    # php-gd (a dependency of Debian's wordpress, named so it stays): WordPress makes image sizes with it.
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
      wordpress php-cli php-mysql php-gd mariadb-server >&2
    log "packages installed in $(since "$t0")s"
  fi
  exec 9>&- # closing releases the lock, and keeps the fd out of mariadbd and php -S
}

# A secret kept in $STATE/$1: the value of the variable $2 when set, else the kept one, else $3 random alphanumerics.
# $4: the characters allowed (default alphanumerics).
kept_secret() {
  local file=$STATE/$1 name=$2 length=$3 allowed=${4:-A-Za-z0-9} pw
  if [ -n "${!name:-}" ]; then
    pw=${!name}
  elif [ -s "$file" ]; then
    pw=$(cat "$file")
  else
    # head closes the pipe early: ignore SIGPIPE.
    pw=$(set +o pipefail; LC_ALL=C tr -dc 'A-Za-z0-9' </dev/urandom | head -c "$length")
  fi
  # WordPress strips everything but [A-Za-z0-9] from a presented application password before checking it; the others
  # are printed as KEY=value lines that a shell may source.
  [[ $pw =~ ^[$allowed]+$ ]] || die "$name may only have the characters $allowed"
  (umask 077 && printf '%s\n' "$pw" >"$file")
  echo "$pw"
}
# 24 alphanumerics, like WordPress's own application passwords.
users_password() { kept_secret users-password WP_USERS_PASSWORD 24; }
# The wp-login.php password of every seeded user (WordPress refuses application passwords there).
login_password() { kept_secret login-password WP_LOGIN_PASSWORD 20; }

# Points the companion plugin's change notifications at $GATEWAY (its `calendar_gateway_webhook` setting, which the
# settings screen edits too) and records the lines to print.
configure_gateway() {
  local url=$1 admin=$2 notify secret body
  [ -n "$GATEWAY" ] || return 0
  notify=${GATEWAY%/}
  [[ $notify == */calendar-gateway/v1/notify ]] || notify=$notify/calendar-gateway/v1/notify
  secret=$(kept_secret webhook-secret WEBHOOK_SECRET 32 'A-Za-z0-9._~+/=-')
  [ ${#secret} -ge 16 ] || die "WEBHOOK_SECRET must have at least 16 characters (the gateway's rule)"
  body=$(php -r 'echo json_encode(["calendar_gateway_webhook" => ["url" => $argv[1], "secret" => $argv[2]]]);' \
    "$notify" "$secret")
  curl -fsS -o /dev/null -u "$admin" -H 'Content-Type: application/json' --data-binary "$body" \
    "$url/wp/v2/settings" || die "setting the webhook through $url/wp/v2/settings failed"
  (umask 077 && printf 'WEBHOOK_URL=%s\nWEBHOOK_SECRET=%s\n' "$notify" "$secret" >"$STATE/webhook")
  log "change notifications go to $notify"
}

start_db() {
  local as_root=0 i pid
  [ "$(id -u)" = 0 ] && as_root=1
  mkdir -p "$RUN" "$DB"
  if [ $as_root = 1 ]; then
    chown mysql:mysql "$RUN" "$DB"
    runuser -u mysql -- test -w "$RUN" ||
      die "user mysql cannot reach $RUN: every directory above it must be traversable (chmod o+x)"
  fi
  if [ ! -d "$DB/mysql" ]; then
    log "initialising MariaDB datadir"
    local auth=socket user_opt=()
    [ $as_root = 1 ] && user_opt=(--user=mysql) || auth=normal
    # --tmpdir: the bootstrap's temporary tables in /tmp met those of other sites installed at the same time
    # ("Could not remove temporary table: '/tmp/#sql-temptable-…'", then "Unknown table 'mysql.tmp_user_sys'").
    mariadb-install-db --no-defaults "${user_opt[@]}" --datadir="$DB" --tmpdir="$RUN" --skip-test-db \
      --auth-root-authentication-method=$auth >"$RUN/install-db.log" 2>&1 ||
      { tail -n 30 "$RUN/install-db.log" >&2; die "mariadb-install-db failed (log above)"; }
  fi
  if alive "$(db_pid)" && db_ping; then
    log "mariadbd already running (pid $(db_pid))"
    return 0
  fi
  rm -f "$RUN/mysqld.pid" "$SOCK"
  local user_opt=()
  [ $as_root = 1 ] && user_opt=(--user=mysql)
  setsid mariadbd --no-defaults "${user_opt[@]}" --datadir="$DB" --socket="$SOCK" \
    --pid-file="$RUN/mysqld.pid" --tmpdir="$RUN" --skip-networking --skip-log-bin --innodb-buffer-pool-size=128M \
    --innodb-flush-log-at-trx-commit=2 --log-error="$RUN/mysqld.err" </dev/null >/dev/null 2>&1 &
  pid=$!
  for ((i = 0; i < 600; i++)); do
    db_ping && break
    alive "$pid" || { tail -n 30 "$RUN/mysqld.err" >&2; die "mariadbd exited during start-up (tail of $RUN/mysqld.err above)"; }
    sleep 0.05
  done
  db_ping || { tail -n 30 "$RUN/mysqld.err" >&2; die "mariadbd not answering after 30s (tail of $RUN/mysqld.err above)"; }
  log "mariadbd running (pid $pid)"
  mariadb --no-defaults --socket="$SOCK" -uroot -e "CREATE DATABASE IF NOT EXISTS wordpress
      CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
    CREATE USER IF NOT EXISTS 'wp'@'localhost' IDENTIFIED BY 'wp';
    GRANT ALL ON wordpress.* TO 'wp'@'localhost';" || die "creating the database failed"
}

# The companion plugin as an mu-plugin: its folder, and a loader file (WordPress loads only files at mu-plugins' top).
install_companion() {
  local mu="$1/wp-content/mu-plugins"
  mkdir -p "$mu"
  rm -rf "$mu/calendar-gateway-companion.tmp"
  cp -a "$HERE/companion" "$mu/calendar-gateway-companion.tmp"
  rm -rf "$mu/calendar-gateway-companion"
  mv "$mu/calendar-gateway-companion.tmp" "$mu/calendar-gateway-companion"
  printf '%s\n' '<?php' "require_once __DIR__ . '/calendar-gateway-companion/calendar-gateway-companion.php';" \
    >"$mu/calendar-gateway-companion.php"
}

prepare_site() {
  if [ ! -f "$SITE/wp-settings.php" ]; then
    log "copying /usr/share/wordpress"
    rm -rf "$SITE.tmp"
    # A copy, not symlinks: PHP resolves __DIR__ through symlinks and would load Debian's wp-config.php.
    cp -a /usr/share/wordpress "$SITE.tmp"
    rm -f "$SITE.tmp/.htaccess" "$SITE.tmp/wp-config.php" # both point into /etc/wordpress
    mv "$SITE.tmp" "$SITE"
  fi
  install_companion "$SITE"
  cp "$MAPPING" "$STATE/mapping.json"
  local url=http://127.0.0.1:$PORT salt hook_url hook_secret
  salt=$(basename "$STATE")
  # Change notifications to the gateway (empty: the plugin falls back to its option or webhook.json).
  hook_url=${CALENDAR_GATEWAY_WEBHOOK_URL:-}
  hook_secret=${CALENDAR_GATEWAY_WEBHOOK_SECRET:-}
  hook_url=${hook_url//\'/} hook_secret=${hook_secret//\'/}
  cat >"$SITE/wp-config.php" <<PHP
<?php
// Generated by wordpress/wp.sh on every start: private test site, not for production.
define('DB_NAME', 'wordpress');
define('DB_USER', 'wp');
define('DB_PASSWORD', 'wp');
define('DB_HOST', 'localhost:$SOCK');
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
\$table_prefix = 'wp_';
foreach (['AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT', 'SECURE_AUTH_SALT',
    'LOGGED_IN_SALT', 'NONCE_SALT'] as \$k) {
    define(\$k, 'calendar-gateway-test-$salt-' . \$k);
}
define('WP_HOME', '$url');
define('WP_SITEURL', '$url');
define('WP_ENVIRONMENT_TYPE', 'local'); // application passwords over plain http
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('CALENDAR_GATEWAY_MAPPING', '$STATE/mapping.json');
define('CALENDAR_GATEWAY_WEBHOOK_URL', '$hook_url');
define('CALENDAR_GATEWAY_WEBHOOK_SECRET', '$hook_secret');
define('ABSPATH', __DIR__ . '/');
require_once ABSPATH . 'wp-settings.php';
PHP
}

start_php() {
  local i pid
  : >"$STATE/php.log"
  # Own session: Ctrl-C in the caller's terminal must not kill the server; stop does that by PID.
  # opcache checks file times at once (not every 2 s), so a companion plugin copied into a running site counts now.
  # 8>&-: php -S must not keep restore_seed's lock.
  PHP_CLI_SERVER_WORKERS=4 setsid php -d opcache.revalidate_freq=0 -S "127.0.0.1:$PORT" -t "$SITE" "$HERE/php/router.php" \
    </dev/null >>"$STATE/php.log" 2>&1 8>&- &
  pid=$!
  echo "$pid" >"$STATE/php.pid"
  for ((i = 0; i < 600; i++)); do
    http_ok "$PORT" && break
    alive "$pid" || { tail -n 30 "$STATE/php.log" >&2; die "php -S exited (port $PORT in use?) (tail of $STATE/php.log above)"; }
    sleep 0.05
  done
  http_ok "$PORT" || { tail -n 30 "$STATE/php.log" >&2; die "no 200 from http://127.0.0.1:$PORT/wp-json/ after 30s"; }
  echo "$PORT" >"$STATE/port"
  log "php -S serving http://127.0.0.1:$PORT (pid $pid)"
}

# seed_stamp, check_seeded_mapping, restore_seed and seed.
# shellcheck source=wordpress/wp-seed.sh
. "$HERE/wp-seed.sh"

# wp_install() once, the five users with their application and login passwords; writes $STATE/env.
install_users() {
  local pw login
  pw=$(users_password)
  login=$(login_password)
  log "installing WordPress"
  php "$HERE/php/install.php" "$SITE" "$PORT" "$pw" "$login" >"$STATE/install.log" 2>&1 ||
    { tail -n 30 "$STATE/install.log" >&2; die "install.php failed (tail of $STATE/install.log above)"; }
  (umask 077 && printf 'UPSTREAM_URL=%s\nWP_USERS_PASSWORD=%s\nWP_LOGIN_PASSWORD=%s\n' \
    "http://127.0.0.1:$PORT/wp-json" "$pw" "$login" >"$STATE/env")
}

start() {
  local t0 pw url running_port
  t0=$(now)
  sweep_orphans
  [ -f "$MAPPING" ] || die "mapping file not found: $MAPPING"
  MAPPING=$(cd "$(dirname "$MAPPING")" && pwd)/$(basename "$MAPPING")
  if alive "$(php_pid)" && [ -f "$STATE/env" ]; then
    running_port=$(cat "$STATE/port" 2>/dev/null || true)
    [ "$running_port" = "$PORT" ] || die "already running on port $running_port for $STATE; stop it first"
    if [ "$(seed_stamp "$MAPPING")" = "$(seed_stamp "$STATE/mapping.json")" ] && http_ok "$PORT"; then
      # The running site always gets the current companion plugin (PHP reads it on the next request).
      install_companion "$STATE/site"
      # A site started before login passwords existed gets them now.
      grep -q '^WP_LOGIN_PASSWORD=' "$STATE/env" || install_users
      # shellcheck disable=SC1091
      . "$STATE/env"
      configure_gateway "$UPSTREAM_URL" "admin:$WP_USERS_PASSWORD"
      print_lines
      return 0
    fi
    log "running but unhealthy or mapping changed: restarting"
  fi
  check_seeded_mapping
  stop_all
  # Another server on the port would answer our health check while our php -S failed to bind.
  if curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$PORT/"; then
    die "port $PORT is already in use by another process; choose another with --port or WP_PORT"
  fi
  # A failed start leaves nothing running (the logs stay in $STATE); success clears this trap.
  trap 'log "start failed: stopping what was started"; stop_all' EXIT
  ensure_packages
  start_db
  restore_seed
  prepare_site
  install_users
  start_php
  # shellcheck disable=SC1091
  . "$STATE/env"
  url=$UPSTREAM_URL pw=$WP_USERS_PASSWORD
  curl -fsS -o /dev/null -u "admin:$pw" "$url/wp/v2/users/me" ||
    die "the admin application password is rejected by $url (see $STATE/php.log)"
  seed "$url" "admin:$pw"
  configure_gateway "$url" "admin:$pw"
  trap - EXIT
  log "ready in $(since "$t0")s"
  print_lines
}

status() {
  local pid
  pid=$(php_pid)
  if alive "$pid" && http_ok "$(cat "$STATE/port" 2>/dev/null || echo 0)"; then
    echo "running: php -S pid $pid, mariadbd pid $(db_pid), state $STATE" >&2
    print_lines
    return 0
  fi
  echo "not running (state $STATE)" >&2
  return 3
}

case $cmd in
  start) start ;;
  stop)
    t0=$(now)
    stop_all
    log "stopped in $(since "$t0")s"
    ;;
  status) status ;;
  crash-php)
    pid=$(php_pid)
    alive "$pid" || die "php -S is not running (state $STATE)"
    # The workers too: they outlive their parent (pitfall 8), and a crash takes their requests down with them.
    for child in $(ps -o pid= --ppid "$pid" || true); do kill -9 "$child" 2>/dev/null || true; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$STATE/php.pid"
    log "php -S killed (pid $pid)"
    ;;
  start-php)
    [ -f "$STATE/env" ] || die "no site in $STATE: run start first"
    alive "$(php_pid)" && die "php -S already runs (pid $(php_pid))"
    PORT=$(cat "$STATE/port")
    start_php
    ;;
  *) die "usage: wp.sh start [--port N] [--mapping FILE] [--gateway URL] | stop | status | crash-php | start-php" ;;
esac
