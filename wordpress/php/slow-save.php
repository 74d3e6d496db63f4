<?php
// Test only (test/e2e/changes.test.ts copies it into mu-plugins, and removes it): a REST save of a post whose title
// holds `[slow-save N]` waits N ms (at most 5000) between writing its row and writing its terms and meta, as a busy
// WordPress can. A read meanwhile sees the post published, with its new modified date, and without its meta.
add_action('rest_api_init', static function (): void {
    foreach (get_post_types(['show_in_rest' => true]) as $type) {
        add_action("rest_insert_{$type}", static function (WP_Post $post): void {
            if (preg_match('/\[slow-save (\d+)\]/', $post->post_title, $m)) {
                usleep(min((int) $m[1], 5000) * 1000);
            }
        });
    }
});
