# Sourced by wordpress/wp.sh (its variables STATE, MAPPING, PORT, SOCK, ROOT, HERE and its log/die/now/since): the
# seeded sample calendar, and the dump of it that the next site seeded the same way loads instead of seeding again.
# shellcheck shell=bash

# The stamp of a mapping's content (parsed and re-serialised, so reformatting the file does not change it).
seed_stamp() {
  echo "mapping $(node -e 'process.stdout.write(JSON.stringify(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))))' "$1" |
    sha256sum | cut -c1-16)"
}

# A site seeded for one mapping holds that mapping's post types; serving it under another would confuse tests.
check_seeded_mapping() {
  [ ! -f "$STATE/seeded" ] || [ "$(cat "$STATE/seeded")" = "$(seed_stamp "$MAPPING")" ] ||
    die "$STATE was seeded with another mapping; use another WP_STATE_DIR or delete $STATE"
}

# The seeded database is dumped once per seed (mapping, day, seed code, WordPress, companion plugin) to
# $WP_SEED_TEMPLATES, and a new site to be seeded the same way loads that dump instead of writing the sample calendar
# through REST again: the test suite's seeded sites of one mapping cost one seed. The records' dates are relative to
# the site's day (mocks/seed-data.ts), hence the day in the key.
TEMPLATES=${WP_SEED_TEMPLATES:-$ROOT/.wordpress/seed-templates}
template_key() {
  local zone day code
  zone=$(sed -n "s/^export const SITE_TIMEZONE = '\(.*\)';$/\1/p" "$ROOT/mocks/seed-catalog.ts")
  [ -n "$zone" ] || die "no SITE_TIMEZONE in mocks/seed-catalog.ts"
  day=$(TZ=$zone date +%F)
  # Everything the seed reads: its code and what it imports, the companion plugin and PHP helpers, WordPress itself.
  code=$(cd "$ROOT" && find mocks src wordpress -type f ! -name '*.test.ts' -print0 | sort -z | xargs -0 cat |
    cat - /usr/share/wordpress/wp-includes/version.php | sha256sum | cut -c1-16)
  echo "$(seed_stamp "$MAPPING" | cut -d' ' -f2)-$day-$code"
}

# Before install: a site that is to be seeded and is not yet loads the seed's dump when there is one. Otherwise this
# start seeds, and holds the key's lock (fd 8) until seed() has dumped it, so sites started side by side seed once.
restore_seed() {
  RESTORED=0
  [ ! -f "$STATE/seeded" ] && [ "${WP_SKIP_SEED:-}" != 1 ] || return 0
  mkdir -p "$TEMPLATES"
  TEMPLATE=$TEMPLATES/$(template_key)
  exec 8>"$TEMPLATE.lock"
  flock 8
  [ -s "$TEMPLATE.sql" ] || return 0
  local t0 from
  t0=$(now)
  from=$(cat "$TEMPLATE.port")
  { cat "$TEMPLATE.sql"
    # The posts' guid and the stored site address name the template's port (wp-config.php's WP_HOME overrides the
    # latter; the guid is WordPress's permanent id of a post, written once).
    echo "UPDATE wp_posts SET guid = REPLACE(guid, 'http://127.0.0.1:$from/', 'http://127.0.0.1:$PORT/');"
    echo "UPDATE wp_options SET option_value = 'http://127.0.0.1:$PORT' WHERE option_name IN ('siteurl', 'home');"
  } | mariadb --no-defaults --socket="$SOCK" -uroot wordpress || die "loading $TEMPLATE.sql failed"
  exec 8>&-
  RESTORED=1
  log "loaded the seeded database $TEMPLATE.sql in $(since "$t0")s"
}

seed() {
  local url=$1 auth=$2 stamp t0
  stamp=$(seed_stamp "$STATE/mapping.json")
  if [ -f "$STATE/seeded" ]; then
    check_seeded_mapping
    log "already seeded"
    return 0
  fi
  if [ "${WP_SKIP_SEED:-}" = 1 ]; then
    log "WP_SKIP_SEED=1: not seeding"
    return 0
  fi
  if [ "$RESTORED" = 1 ]; then
    echo "$stamp" >"$STATE/seeded"
    return 0
  fi
  node --version | grep -q '^v2[4-9]' || die "Node 24 needed for seeding (run npm install first)"
  t0=$(now)
  node "$HERE/seed.ts" "$url" "$auth" "$STATE/mapping.json" >&2 || die "seeding failed (output above)"
  echo "$stamp" >"$STATE/seeded"
  log "seeded in $(since "$t0")s"
  # Written aside and renamed, so a reader never loads half a dump.
  mariadb-dump --no-defaults --socket="$SOCK" -uroot --single-transaction --skip-dump-date wordpress \
    >"$TEMPLATE.sql.tmp" || die "dumping the seeded database failed"
  echo "$PORT" >"$TEMPLATE.port"
  mv "$TEMPLATE.sql.tmp" "$TEMPLATE.sql"
  exec 8>&-
}
