<?php
// A create through WordPress's REST API that dies as a crash would (SIGKILL, no shutdown hooks) right after its row
// is inserted, at the next database query: what is left shows whether a record can exist without its write token.
//   php die-mid-create.php SITE_DIR REST_BASE TITLE TOKEN
// REST_BASE: a post type's (tribe_organizer…), a taxonomy's (tags…) or `media`. Prints nothing: it never returns.
if ($argc < 5) {
    fwrite(STDERR, "usage: die-mid-create.php SITE_DIR REST_BASE TITLE TOKEN\n");
    exit(2);
}
[, $site, $restBase, $title, $token] = $argv;
define('WP_USE_THEMES', false);
require $site . '/wp-load.php';

wp_set_current_user((int) get_user_by('login', 'admin')->ID);
$isTerm = false;
foreach (get_taxonomies(['show_in_rest' => true], 'objects') as $taxonomy) {
    $isTerm = $isTerm || ($taxonomy->rest_base ?: $taxonomy->name) === $restBase;
}
$table = $isTerm ? 'term_taxonomy' : 'posts';
$inserted = false;
add_filter('query', static function (string $query) use (&$inserted, $table): string {
    global $wpdb;
    if ($inserted) {
        posix_kill(getmypid(), 9);
        sleep(10); // the signal is delivered before this returns
    }
    if (preg_match('/^\s*INSERT INTO `?' . preg_quote($wpdb->prefix . $table, '/') . '`?\s/i', $query)) {
        $inserted = true;
    }
    return $query;
});

$request = new WP_REST_Request('POST', "/wp/v2/$restBase");
$meta = ['_calendar_gateway_write' => $token];
if ($restBase === 'media') {
    // A 1×1 PNG, as the gateway sends an image URL's bytes, its token in the query.
    $request->set_body(base64_decode('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='));
    $request->set_header('Content-Type', 'image/png');
    $request->set_header('Content-Disposition', "attachment; filename=\"$title.png\"");
    $request->set_query_params(['meta' => $meta, 'title' => $title]);
} elseif ($table === 'term_taxonomy') {
    $request->set_body_params(['name' => $title, 'meta' => $meta]);
} else {
    $request->set_body_params(['title' => $title, 'status' => 'publish', 'meta' => $meta]);
}
$response = rest_do_request($request);
fwrite(STDERR, 'the create finished without dying: ' . wp_json_encode($response->get_data()) . "\n");
exit(3);
