<?php
// ---------------------------------------------------------------------------------------------------------------
// WRITE PROVENANCE: every post, term and attachment the gateway creates carries the token of the write that made it
// (meta `_calendar_gateway_write`, sent in the create request itself). When a write fails, the gateway removes only
// what carries its token, found with the list filter `calendar_gateway_write=<token>` added below; it never looks for
// "the record with that title". The key is shown in the edit context only: readers never see it.
// ---------------------------------------------------------------------------------------------------------------

const CALENDAR_GATEWAY_WRITE_META = '_calendar_gateway_write';
const CALENDAR_GATEWAY_WRITE_QUERY = 'calendar_gateway_write';

/** register_meta arguments of the token: a single string, edit context only. */
function calendar_gateway_write_meta_args(callable $auth): array
{
    return [
        'type' => 'string',
        'single' => true,
        'show_in_rest' => ['schema' => ['context' => ['edit']]],
        'auth_callback' => $auth,
    ];
}

/** The token a create request sends, if any. */
function calendar_gateway_write_token(WP_REST_Request $request): string
{
    $meta = $request['meta'];
    $token = is_array($meta) ? ($meta[CALENDAR_GATEWAY_WRITE_META] ?? '') : '';
    return is_string($token) ? $token : '';
}

/** A list request asking for the records of one write: the meta_query that finds them. */
function calendar_gateway_write_filter(array $args, WP_REST_Request $request): array
{
    $token = $request->get_param(CALENDAR_GATEWAY_WRITE_QUERY);
    if (is_string($token) && $token !== '') {
        $args['meta_query'] = array_merge($args['meta_query'] ?? [], [
            ['key' => CALENDAR_GATEWAY_WRITE_META, 'value' => $token],
        ]);
    }
    return $args;
}

// A create and its token go in as one database transaction: opened as the create is prepared, committed once the
// token is written. PHP dying in between (a crash, a SIGKILL, a fatal error) rolls the row back with it, so a record
// never exists without its token (the token alone was written a few queries after the row). Only those few
// queries of the gateway's own create are inside: the row, its slug, its token. READ COMMITTED: its reads see what
// other requests committed meanwhile, as they would without the transaction.
/** Opens (true), commits (false) or rolls back (null) the transaction of the gateway create in progress. */
function calendar_gateway_create_transaction(?bool $open): void
{
    static $inProgress = false;
    global $wpdb;
    if ($open === true && !$inProgress) {
        $wpdb->query('SET TRANSACTION ISOLATION LEVEL READ COMMITTED');
        $inProgress = $wpdb->query('START TRANSACTION') !== false;
    } elseif ($open !== true && $inProgress) {
        $inProgress = false;
        $wpdb->query($open === false ? 'COMMIT' : 'ROLLBACK');
    }
}

// Term creates of the mapped taxonomies take turns, the admin's too: a named lock from before a create's first read
// until it is committed. WordPress's own guard against two creates of one name (its check after the insert, folding
// the newer term into the older) cannot see a term still inside its transaction; in turn, the later create finds the
// earlier term before it inserts anything (term_exists). Held at most for the request; MariaDB frees it if PHP dies.
/** Takes (true) or gives back (false) the turn of term creates. */
function calendar_gateway_term_turn(bool $take): void
{
    static $held = null;
    global $wpdb;
    if ($take && $held === null) {
        $name = 'calendar_gateway_terms_' . md5($wpdb->dbname . '|' . $wpdb->prefix);
        // Ten seconds at most: a create does not wait longer than WordPress would let it run.
        if ((string) $wpdb->get_var($wpdb->prepare('SELECT GET_LOCK(%s, 10)', $name)) === '1') {
            $held = $name;
        }
    } elseif (!$take && $held !== null) {
        $wpdb->query($wpdb->prepare('SELECT RELEASE_LOCK(%s)', $held));
        $held = null;
    }
}

/** Notes (a taxonomy) or clears ('') the gateway term create of this REST request; returns the one noted. */
function calendar_gateway_term_create(?string $taxonomy = null): string
{
    static $current = '';
    if ($taxonomy !== null) {
        $current = $taxonomy;
    }
    return $current;
}

add_filter('pre_insert_term', static function ($term, $taxonomy) {
    if (in_array($taxonomy, calendar_gateway_taxonomies(), true)) {
        calendar_gateway_term_turn(true);
    }
    return $term;
}, 10, 2);
add_action('saved_term', static fn () => calendar_gateway_term_turn(false), PHP_INT_MAX);

// The token of a new post is the last of its meta_input: written, the create is whole.
add_action('added_post_meta', static function ($mid, $objectId, $key): void {
    if ($key === CALENDAR_GATEWAY_WRITE_META) {
        calendar_gateway_create_transaction(false);
    }
}, 10, 3);
// A create that ended without writing its token (refused before its insert, a term folded into an older one): what
// it answered stands, an error leaves nothing. A request that dies never gets here: its connection's end rolls back.
add_filter('rest_request_after_callbacks', static function ($response) {
    calendar_gateway_create_transaction(is_wp_error($response) ? null : false);
    // A gateway term create answered with an existing term: the gateway uses that term, so it is someone else's
    // too, and a failed write of its creator must no longer remove it (as for a fold, below).
    if (calendar_gateway_term_create() !== '' && is_wp_error($response) && $response->get_error_code() === 'term_exists') {
        $data = $response->get_error_data();
        $existing = (int) (is_array($data) ? ($data['term_id'] ?? 0) : $data);
        if ($existing > 0) {
            calendar_gateway_share_term($existing);
        }
    }
    calendar_gateway_term_create('');
    calendar_gateway_term_turn(false);
    return $response;
}, PHP_INT_MAX);
add_action('shutdown', static function (): void {
    calendar_gateway_create_transaction(null);
    calendar_gateway_term_turn(false);
}, PHP_INT_MIN);

const CALENDAR_GATEWAY_WRITE_SHARED = '_calendar_gateway_write_shared';

// Two creates of the same term name at once: wp_insert_term folds the newer into the older and answers both creators
// with it (its last-minute duplicate check). The older term is then someone else's too, so it no longer carries a
// write token: a failed gateway write never deletes a term another creator was given.
add_filter('wp_insert_term_duplicate_term_check', static function ($duplicate, $term, $taxonomy) {
    if ($duplicate && in_array($taxonomy, calendar_gateway_taxonomies(), true)) {
        calendar_gateway_share_term((int) $duplicate->term_id);
    }
    return $duplicate;
}, 10, 3);

/** A term given to more than one creator: it carries no write token from now on. */
function calendar_gateway_share_term(int $termId): void
{
    update_term_meta($termId, CALENDAR_GATEWAY_WRITE_SHARED, '1');
    delete_term_meta($termId, CALENDAR_GATEWAY_WRITE_META);
}

add_action('init', static function (): void {
    $types = array_merge(array_keys(calendar_gateway_post_types()), ['attachment']);
    foreach ($types as $type) {
        // Only who may edit the post writes it (the author of a new post may: it is theirs).
        register_post_meta($type, CALENDAR_GATEWAY_WRITE_META, calendar_gateway_write_meta_args(
            static fn ($allowed, $key, $post_id) => current_user_can('edit_post', $post_id)
        ));
        // Written by wp_insert_post itself (meta_input), in the transaction of the row (above): a record is never
        // created without its token, even when PHP dies mid-request.
        add_filter("rest_pre_insert_{$type}", static function ($prepared, WP_REST_Request $request) {
            $token = calendar_gateway_write_token($request);
            if ($token !== '' && is_object($prepared) && empty($prepared->ID)) {
                $prepared->meta_input = array_merge((array) ($prepared->meta_input ?? []), [CALENDAR_GATEWAY_WRITE_META => $token]);
                calendar_gateway_create_transaction(true);
            }
            return $prepared;
        }, 10, 2);
        add_filter("rest_{$type}_query", 'calendar_gateway_write_filter', 10, 2);
        add_filter("rest_{$type}_collection_params", static function (array $params): array {
            $params[CALENDAR_GATEWAY_WRITE_QUERY] = [
                'description' => 'Limit results to the records one calendar-gateway write created.',
                'type' => 'string',
            ];
            return $params;
        });
    }
    foreach (calendar_gateway_taxonomies() as $taxonomy) {
        register_term_meta($taxonomy, CALENDAR_GATEWAY_WRITE_META, calendar_gateway_write_meta_args(
            static fn ($allowed, $key, $term_id) => current_user_can('edit_term', $term_id)
        ));
        // The token goes in as the term is inserted (created_{taxonomy} runs inside wp_insert_term), as for posts. It
        // is then taken out of the request's meta: a contributor or author may create a tag but not edit terms, so
        // the REST meta update that follows would refuse it (403) after the term was made.
        add_filter("rest_pre_insert_{$taxonomy}", static function ($prepared, WP_REST_Request $request) use ($taxonomy) {
            $token = calendar_gateway_write_token($request);
            if ($token === '' || !empty($prepared->term_id)) {
                return $prepared;
            }
            $meta = $request['meta'];
            unset($meta[CALENDAR_GATEWAY_WRITE_META]);
            $request->set_param('meta', $meta);
            calendar_gateway_term_create($taxonomy);
            // The turn before the transaction: its first read comes after the previous create was committed.
            calendar_gateway_term_turn(true);
            $stamp = static function ($term_id) use ($token, $taxonomy, &$stamp): void {
                remove_action("created_{$taxonomy}", $stamp);
                // Another create of the same name was folded into this term meanwhile (below): it is shared.
                if (get_term_meta($term_id, CALENDAR_GATEWAY_WRITE_SHARED, true) === '') {
                    add_term_meta($term_id, CALENDAR_GATEWAY_WRITE_META, $token, true);
                }
                calendar_gateway_create_transaction(false);
            };
            add_action("created_{$taxonomy}", $stamp);
            calendar_gateway_create_transaction(true);
            return $prepared;
        }, 10, 2);
        add_filter("rest_{$taxonomy}_query", 'calendar_gateway_write_filter', 10, 2);
        add_filter("rest_{$taxonomy}_collection_params", static function (array $params): array {
            $params[CALENDAR_GATEWAY_WRITE_QUERY] = [
                'description' => 'Limit results to the terms one calendar-gateway write created.',
                'type' => 'string',
            ];
            return $params;
        });
    }
}, 20);
