<?php
// Companion plugin (mu-plugin or normal plugin): exposes the calendar mapping's post types, taxonomies and meta
// through core wp/v2 REST.
/**
 * Plugin Name: calendar-gateway companion
 * Description: Registers the post types, taxonomies and meta keys named by the calendar-gateway mapping
 *              (constant CALENDAR_GATEWAY_MAPPING = path of the mapping JSON, else the bundled mapping chosen
 *              under Settings → Calendar gateway) so that wp/v2 serves them, and tells the gateway of changes.
 * Version: 0.1.0
 * Requires at least: 6.1
 * Requires PHP: 8.2
 * License: GPL-2.0-or-later
 * Text Domain: calendar-gateway-companion
 * License URI: https://www.gnu.org/licenses/old-licenses/gpl-2.0.html
 */

defined('ABSPATH') || exit;

// The REST site never sends mail (no sendmail on CI machines; wp_install() would try to mail the admin).
add_filter('pre_wp_mail', '__return_false');

/** The mappings shipped in the plugin's mappings/ folder (the installable zip has them), by name => file. */
function calendar_gateway_bundled_mappings(): array
{
    $out = [];
    foreach (glob(__DIR__ . '/mappings/*.json') ?: [] as $file) {
        $out[basename($file, '.json')] = $file;
    }
    return $out;
}

/**
 * The mapping file: the constant CALENDAR_GATEWAY_MAPPING (wp-config.php) when defined, else the bundled mapping named
 * by the option `calendar_gateway_mapping` (default `tec`, TEC's own storage). Null when there is none.
 */
function calendar_gateway_mapping_file(): ?string
{
    if (defined('CALENDAR_GATEWAY_MAPPING')) {
        return (string) CALENDAR_GATEWAY_MAPPING;
    }
    $bundled = calendar_gateway_bundled_mappings();
    return $bundled[(string) get_option('calendar_gateway_mapping', 'tec')] ?? $bundled['tec'] ?? null;
}

/** The decoded mapping, or null when there is no mapping file or it is unreadable (then we register nothing). */
function calendar_gateway_mapping(): ?array
{
    static $mapping = false;
    if ($mapping !== false) {
        return $mapping;
    }
    $mapping = null;
    $file = calendar_gateway_mapping_file();
    if ($file === null || !is_readable($file)) {
        return null;
    }
    $decoded = json_decode((string) file_get_contents($file), true);
    if (is_array($decoded)) {
        $mapping = $decoded;
    }
    return $mapping;
}

/** register_post_meta arguments for a mapping storage format (see metaKeysOf in src/mapping/schema.ts). */
function calendar_gateway_meta_args(string $format, $default = null): array
{
    // Lists are one meta row per value, so WordPress must see them as non-single.
    $list = $format === 'int-list' || $format === 'string-list';
    $type = ($format === 'int' || $format === 'int-list') ? 'integer' : 'string';
    $args = [
        'type' => $type,
        'single' => !$list,
        'show_in_rest' => true,
        // Underscore keys are protected: without this callback REST refuses every write (403).
        'auth_callback' => static function ($allowed, $meta_key, $post_id) {
            return current_user_can('edit_post', $post_id);
        },
    ];
    // A flag whose absence means "on" (TEC's show_map): REST must tell a missing row ('1') from an empty one ('').
    if ($format === 'bool' && $default !== null) {
        $args['default'] = $default ? '1' : '';
    }
    return $args;
}

add_action('init', static function (): void {
    $mapping = calendar_gateway_mapping();
    if ($mapping === null) {
        return;
    }

    foreach (['event', 'venue', 'organizer'] as $kind) {
        $res = $mapping[$kind] ?? null;
        if (!is_array($res) || empty($res['postType'])) {
            continue;
        }
        $type = $res['postType'];
        // A site that already has the post type (TEC itself, or the theme's CPT) keeps its own registration.
        if (!post_type_exists($type)) {
            register_post_type($type, [
                'label' => ucfirst($kind) . 's',
                'public' => true,
                'show_in_rest' => true,
                'rest_base' => $res['restBase'] ?? $type,
                // No 'revisions': it costs one extra SQL query per listed item (wordpress-upstream.md §7).
                'supports' => ['title', 'editor', 'excerpt', 'custom-fields', 'thumbnail', 'author', 'page-attributes'],
                // WordPress's own post capabilities, so the roles get TEC-like rights without extra caps.
                'capability_type' => 'post',
                'map_meta_cap' => true,
            ]);
        }
        foreach (($res['fields'] ?? []) as $source) {
            if (is_array($source) && isset($source['meta'])) {
                register_post_meta($type, $source['meta'], calendar_gateway_meta_args($source['format'] ?? 'string', $source['default'] ?? null));
            }
        }
    }

    $eventType = $mapping['event']['postType'] ?? null;
    foreach (['categories', 'tags'] as $which) {
        $tax = $mapping['event'][$which] ?? null;
        if ($eventType === null || !is_array($tax) || empty($tax['taxonomy'])) {
            continue;
        }
        if (taxonomy_exists($tax['taxonomy'])) {
            register_taxonomy_for_object_type($tax['taxonomy'], $eventType);
            continue;
        }
        register_taxonomy($tax['taxonomy'], [$eventType], [
            'label' => ucfirst($which),
            'public' => true,
            'hierarchical' => (bool) ($tax['hierarchical'] ?? false),
            'show_in_rest' => true,
            'rest_base' => $tax['restBase'] ?? $tax['taxonomy'],
        ]);
    }
});

// The URL an image was downloaded from, under TEC's own key (Tribe__Image__Uploader keeps it there too): the gateway
// records it when it sideloads an `image` URL and reuses that attachment when the same URL comes again.
add_action('init', static function (): void {
    register_post_meta('attachment', '_tribe_importer_original_url', [
        'type' => 'string',
        'single' => true,
        'show_in_rest' => true,
        'auth_callback' => static function ($allowed, $meta_key, $post_id) {
            return current_user_can('edit_post', $post_id);
        },
    ]);
});

// Write provenance (the gateway's write token on what it creates) and the recurring series' list filter.
require_once __DIR__ . '/provenance.php';
require_once __DIR__ . '/recurrence.php';

// ---------------------------------------------------------------------------------------------------------------
// CHANGE NOTIFICATION WEBHOOK: post saves, status changes, trash, deletes, meta and term changes of the mapping's
// post types and taxonomies are collected during the request and sent once, signed (HMAC-SHA256 of the raw body),
// to the gateway at shutdown. Where to: constants CALENDAR_GATEWAY_WEBHOOK_URL / _SECRET (wp-config.php), else the
// option `calendar_gateway_webhook` ({url, secret}; settable by admins through /wp/v2/settings), else webhook.json
// next to the mapping file. Several gateway URLs may be given, comma-separated (one per Redis is enough).
// ---------------------------------------------------------------------------------------------------------------

/** ['urls' => string[], 'secret' => string], or null when notifications are not configured. */
function calendar_gateway_webhook(): ?array
{
    $url = defined('CALENDAR_GATEWAY_WEBHOOK_URL') ? (string) CALENDAR_GATEWAY_WEBHOOK_URL : '';
    $secret = defined('CALENDAR_GATEWAY_WEBHOOK_SECRET') ? (string) CALENDAR_GATEWAY_WEBHOOK_SECRET : '';
    if ($url === '' || $secret === '') {
        $opt = get_option('calendar_gateway_webhook');
        if (is_array($opt) && !empty($opt['url']) && !empty($opt['secret'])) {
            [$url, $secret] = [(string) $opt['url'], (string) $opt['secret']];
        }
    }
    if (($url === '' || $secret === '') && defined('CALENDAR_GATEWAY_MAPPING')) {
        $file = dirname((string) CALENDAR_GATEWAY_MAPPING) . '/webhook.json';
        $json = is_readable($file) ? json_decode((string) file_get_contents($file), true) : null;
        if (is_array($json) && !empty($json['url']) && !empty($json['secret'])) {
            [$url, $secret] = [(string) $json['url'], (string) $json['secret']];
        }
    }
    $urls = preg_split('/[\s,]+/', $url, -1, PREG_SPLIT_NO_EMPTY);
    return $urls && $secret !== '' ? ['urls' => $urls, 'secret' => $secret] : null;
}

add_action('init', function () {
    register_setting('general', 'calendar_gateway_webhook', [
        'type' => 'object',
        'description' => 'Where the calendar gateway listens for change notifications, and the shared secret.',
        'default' => ['url' => '', 'secret' => ''],
        'show_in_rest' => [
            'schema' => [
                'type' => 'object',
                'properties' => ['url' => ['type' => 'string'], 'secret' => ['type' => 'string']],
            ],
        ],
    ]);
});

/** The mapping's post types, by post type name => kind. */
function calendar_gateway_post_types(): array
{
    $mapping = calendar_gateway_mapping() ?? [];
    $out = [];
    foreach (['event', 'venue', 'organizer'] as $kind) {
        if (!empty($mapping[$kind]['postType'])) {
            $out[$mapping[$kind]['postType']] = $kind;
        }
    }
    return $out;
}

function calendar_gateway_taxonomies(): array
{
    $mapping = calendar_gateway_mapping() ?? [];
    $out = [];
    foreach (['categories', 'tags'] as $which) {
        if (!empty($mapping['event'][$which]['taxonomy'])) {
            $out[] = $mapping['event'][$which]['taxonomy'];
        }
    }
    return $out;
}

/** Collects one change; the first one registers the shutdown sender. */
function calendar_gateway_queue(string $kind, int $id, string $type, string $action): void
{
    static $hooked = false;
    if ($id <= 0 || calendar_gateway_webhook() === null) {
        return;
    }
    $GLOBALS['calendar_gateway_changes']["$kind:$id:$action"] = ['kind' => $kind, 'id' => $id, 'type' => $type, 'action' => $action];
    if (!$hooked) {
        $hooked = true;
        add_action('shutdown', 'calendar_gateway_send', 100);
    }
}

function calendar_gateway_queue_post(int $post_id, string $action, ?WP_Post $post = null): void
{
    $post = $post ?? get_post($post_id);
    if (!$post || wp_is_post_revision($post) || wp_is_post_autosave($post)) {
        return;
    }
    // Attachments too: events, venues and organizers show them as their image (an edit, a deleted file).
    if (isset(calendar_gateway_post_types()[$post->post_type]) || $post->post_type === 'attachment') {
        calendar_gateway_queue('post', (int) $post->ID, $post->post_type, $action);
    }
}

add_action('save_post', function ($post_id, $post) {
    calendar_gateway_queue_post((int) $post_id, 'save', $post);
}, 10, 2);
add_action('transition_post_status', function ($new, $old, $post) {
    if ($new !== $old) {
        calendar_gateway_queue_post((int) $post->ID, 'status', $post);
    }
}, 10, 3);
add_action('trashed_post', function ($post_id) {
    calendar_gateway_queue_post((int) $post_id, 'trash');
});
add_action('untrashed_post', function ($post_id) {
    calendar_gateway_queue_post((int) $post_id, 'status');
});
add_action('deleted_post', function ($post_id, $post = null) {
    calendar_gateway_queue_post((int) $post_id, 'delete', $post instanceof WP_Post ? $post : null);
}, 10, 2);
foreach (['added_post_meta', 'updated_post_meta', 'deleted_post_meta'] as $hook) {
    add_action($hook, function ($meta_ids, $object_id, $meta_key) {
        // Editor bookkeeping (_edit_lock, _edit_last) changes nothing a calendar shows.
        if (is_string($meta_key) && strpos($meta_key, '_edit_') === 0) {
            return;
        }
        calendar_gateway_queue_post((int) $object_id, 'meta');
    }, 10, 3);
}
add_action('set_object_terms', function ($object_id, $terms, $tt_ids, $taxonomy) {
    if (in_array($taxonomy, calendar_gateway_taxonomies(), true)) {
        calendar_gateway_queue_post((int) $object_id, 'meta');
    }
}, 10, 4);
foreach (['created_term' => 'create', 'edited_term' => 'edit', 'delete_term' => 'delete'] as $hook => $action) {
    add_action($hook, function ($term_id, $tt_id, $taxonomy) use ($action) {
        if (in_array($taxonomy, calendar_gateway_taxonomies(), true)) {
            calendar_gateway_queue('term', (int) $term_id, (string) $taxonomy, $action);
        }
    }, 10, 3);
}

/** Sends the collected changes after the response (php-fpm) or at the very end of the request (php -S). */
function calendar_gateway_send(): void
{
    $changes = array_values($GLOBALS['calendar_gateway_changes'] ?? []);
    $hook = calendar_gateway_webhook();
    if (!$changes || $hook === null) {
        return;
    }
    $GLOBALS['calendar_gateway_changes'] = [];
    if (function_exists('fastcgi_finish_request')) {
        fastcgi_finish_request();
    }
    calendar_gateway_notify($hook, $changes);
}

/**
 * Sends one signed notification to every configured gateway and records when and how each answered (option
 * `calendar_gateway_last_notification`, shown on the settings screen). An empty `changes` list is a test: the gateway
 * accepts it and drops nothing. Returns one result per URL: url, status (0 = unreachable), body or error.
 */
function calendar_gateway_notify(array $hook, array $changes, bool $test = false, int $timeout = 2): array
{
    // A test carries a random id: two tests in the same second are two bodies, not a replay the gateway refuses.
    $body = wp_json_encode(['time' => time(), 'changes' => $changes] + ($test ? ['test' => wp_generate_uuid4()] : []));
    $signature = 'sha256=' . hash_hmac('sha256', $body, $hook['secret']);
    $results = [];
    foreach ($hook['urls'] as $url) {
        // The gateway answers 202 at once and refreshes in the background, so a short timeout is plenty.
        $res = wp_remote_post($url, [
            'body' => $body,
            'headers' => ['Content-Type' => 'application/json', 'X-Calendar-Gateway-Signature' => $signature],
            'timeout' => $timeout,
            'redirection' => 0,
        ]);
        $results[] = is_wp_error($res)
            ? ['url' => $url, 'status' => 0, 'body' => $res->get_error_message()]
            : ['url' => $url, 'status' => (int) wp_remote_retrieve_response_code($res),
                'body' => substr((string) wp_remote_retrieve_body($res), 0, 500)];
    }
    update_option('calendar_gateway_last_notification', [
        'time' => time(),
        'test' => $test,
        'changes' => count($changes),
        'results' => $results,
    ], false);
    return $results;
}

// The files of gateway media creates that died mid-way (uploads.php).
require_once __DIR__ . '/uploads.php';

// The block "Calendar (gateway)": the calendar element on the configured gateway.
require_once __DIR__ . '/block/calendar-block.php';

// Screens for editors in wp-admin (sites without TEC's own): each file in admin/ adds its part.
foreach (glob(__DIR__ . '/admin/*.php') ?: [] as $calendar_gateway_admin_file) {
    require_once $calendar_gateway_admin_file;
}
