<?php
// Bulk events for the large-crawl test, straight through WordPress's own API (one transaction, fast):
//   php bulk-events.php SITE_DIR insert COUNT TAG   → prints the new ids as JSON
//   php bulk-events.php SITE_DIR delete TAG         → deletes every event it inserted with TAG, prints the count
// Events start an hour apart from 2031-01-01 10:00 and carry TAG in their title, content and `_cg_bulk` meta.
if ($argc < 4) {
    fwrite(STDERR, "usage: bulk-events.php SITE_DIR insert COUNT TAG | delete TAG\n");
    exit(2);
}
$site = $argv[1];
$op = $argv[2];
define('WP_USE_THEMES', false);
require $site . '/wp-load.php';
global $wpdb;
wp_defer_term_counting(true);
wp_suspend_cache_invalidation(true);
$wpdb->query('START TRANSACTION');
if ($op === 'insert') {
    $count = (int) $argv[3];
    $tag = (string) ($argv[4] ?? '');
    if ($count < 1 || $tag === '') {
        fwrite(STDERR, "insert needs COUNT > 0 and a TAG\n");
        exit(2);
    }
    $base = strtotime('2031-01-01 10:00:00 UTC');
    $ids = [];
    for ($i = 0; $i < $count; $i++) {
        $start = gmdate('Y-m-d H:i:s', $base + $i * 3600);
        $end = gmdate('Y-m-d H:i:s', $base + $i * 3600 + 5400);
        $id = wp_insert_post([
            'post_type' => 'tribe_events',
            'post_status' => 'publish',
            'post_author' => 1,
            'post_title' => "$tag event $i",
            'post_content' => "<p>Bulk $tag body $i.</p>",
            'meta_input' => [
                '_EventStartDate' => $start,
                '_EventEndDate' => $end,
                '_EventStartDateUTC' => $start,
                '_EventEndDateUTC' => $end,
                '_EventTimezone' => 'UTC',
                '_cg_bulk' => $tag,
            ],
        ], true);
        if (is_wp_error($id)) {
            $wpdb->query('ROLLBACK');
            fwrite(STDERR, $id->get_error_message() . "\n");
            exit(1);
        }
        $ids[] = $id;
    }
    $wpdb->query('COMMIT');
    echo json_encode($ids);
} elseif ($op === 'delete') {
    $ids = $wpdb->get_col($wpdb->prepare(
        "SELECT post_id FROM $wpdb->postmeta WHERE meta_key = '_cg_bulk' AND meta_value = %s",
        $argv[3]
    ));
    foreach ($ids as $id) wp_delete_post((int) $id, true);
    $wpdb->query('COMMIT');
    echo count($ids);
} else {
    fwrite(STDERR, "unknown operation '$op'\n");
    exit(2);
}
