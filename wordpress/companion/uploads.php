<?php
// UPLOADS OF GATEWAY WRITES: the file of a gateway media create is noted just before WordPress moves it into uploads,
// before its attachment row exists, and the note goes once the row names the file. The create's transaction
// (calendar-gateway-companion.php) rolls the row back with its token when PHP dies mid-create, but not the file,
// which was moved before; and the row's file name (`_wp_attached_file`) is written after the token, so a row the
// gateway removes by its token may not know its file. An hourly sweep removes the files whose note outlived its
// request by CALENDAR_GATEWAY_UPLOAD_AGE and that no attachment names.

if (!defined('ABSPATH')) {
    exit;
}

const CALENDAR_GATEWAY_UPLOAD_NOTE = 'calendar_gateway_upload_';
const CALENDAR_GATEWAY_UPLOAD_SWEEP = 'calendar_gateway_sweep_uploads';
/** Seconds a note may stay before its file counts as left behind: longer than any request may run. */
const CALENDAR_GATEWAY_UPLOAD_AGE = 900;

/** The write token of the media create being served ('' for anything else); `$token` sets it. */
function calendar_gateway_upload_token(?string $token = null): string
{
    static $current = '';
    if ($token !== null) {
        $current = $token;
    }
    return $current;
}

/** The option naming one uploaded file, by its absolute path. */
function calendar_gateway_upload_key(string $file): string
{
    return CALENDAR_GATEWAY_UPLOAD_NOTE . md5(wp_normalize_path($file));
}

add_filter('rest_request_before_callbacks', static function ($response, $handler, WP_REST_Request $request) {
    $create = $request->get_method() === 'POST' && preg_match('#^/wp/v2/media/?$#', $request->get_route());
    calendar_gateway_upload_token($create ? calendar_gateway_write_token($request) : '');
    return $response;
}, 10, 3);
add_filter('rest_request_after_callbacks', static function ($response) {
    calendar_gateway_upload_token('');
    return $response;
}, 10);

// Right before the move, with the file's final path (uploads and sideloads both pass here), outside the create's
// transaction: the note is committed at once, so it outlives a PHP that dies during the move or later in the create.
// (Noted after the move, a PHP killed between the two left a file nothing named: seen once in the crash burst test.)
add_filter('pre_move_uploaded_file', static function ($move, $file, $newFile) {
    $token = calendar_gateway_upload_token();
    if ($token !== '' && is_string($newFile) && $newFile !== '') {
        $note = ['file' => wp_normalize_path($newFile), 'token' => $token, 'time' => time()];
        add_option(calendar_gateway_upload_key($newFile), $note, '', 'no');
    }
    return $move;
}, 10, 3);

// The row names its file (after its token): the file is the attachment's now, and goes when it is deleted.
add_action('added_post_meta', static function ($mid, $objectId, $key): void {
    if ($key !== '_wp_attached_file' || get_post_type((int) $objectId) !== 'attachment') {
        return;
    }
    $file = get_attached_file((int) $objectId, true);
    if (is_string($file) && $file !== '') {
        delete_option(calendar_gateway_upload_key($file));
    }
}, 10, 3);

/**
 * Removes the files of notes older than `$age` seconds that no attachment names (their create died), and the notes.
 * Answers the files removed.
 */
function calendar_gateway_sweep_uploads(?int $age = null): array
{
    global $wpdb;
    $age = $age ?? (int) apply_filters('calendar_gateway_upload_age', CALENDAR_GATEWAY_UPLOAD_AGE);
    $like = $wpdb->esc_like(CALENDAR_GATEWAY_UPLOAD_NOTE) . '%';
    $names = $wpdb->get_col($wpdb->prepare("SELECT option_name FROM {$wpdb->options} WHERE option_name LIKE %s", $like));
    $uploads = wp_get_upload_dir();
    $base = trailingslashit(wp_normalize_path($uploads['basedir']));
    $removed = [];
    foreach ($names as $name) {
        $note = get_option($name);
        if (!is_array($note) || !isset($note['file'], $note['time'])) {
            delete_option($name);
            continue;
        }
        if ((int) $note['time'] > time() - $age) {
            continue;
        }
        $file = wp_normalize_path((string) $note['file']);
        // Only a file inside uploads, and only when no attachment names it (its create finished after all).
        if (strpos($file, $base) === 0) {
            $relative = substr($file, strlen($base));
            $used = $wpdb->get_var($wpdb->prepare(
                "SELECT post_id FROM {$wpdb->postmeta} WHERE meta_key = '_wp_attached_file' AND meta_value = %s LIMIT 1",
                $relative
            ));
            if ($used === null && is_file($file)) {
                wp_delete_file($file);
                $removed[] = $relative;
            }
        }
        delete_option($name);
    }
    return $removed;
}

add_action(CALENDAR_GATEWAY_UPLOAD_SWEEP, static function (): void {
    calendar_gateway_sweep_uploads();
});
add_action('init', static function (): void {
    if (!wp_next_scheduled(CALENDAR_GATEWAY_UPLOAD_SWEEP)) {
        wp_schedule_event(time() + HOUR_IN_SECONDS, 'hourly', CALENDAR_GATEWAY_UPLOAD_SWEEP);
    }
});
