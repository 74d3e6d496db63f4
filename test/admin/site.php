<?php
// Test helper on a local WordPress's own PHP: `php site.php <site dir> login-password <password>` gives the five
// seeded users that wp-login.php password and dismisses the block editor's welcome guide for them;
// `php site.php <site dir> meta <post id>` prints the post's meta rows and menu_order as JSON;
// `php site.php <site dir> page-theme` installs and activates a bare classic theme (Debian's WordPress has none, so
// its front end is blank): wp_head, each post's content, wp_footer, for the tests of what a visitor's page shows.

[, $site, $command] = $argv + [null, null, null];
$_SERVER['HTTP_HOST'] = 'localhost';
require $site . '/wp-load.php';

if ($command === 'login-password') {
    global $wpdb;
    foreach (['admin', 'editor', 'author', 'contributor', 'subscriber'] as $login) {
        $user = get_user_by('login', $login);
        if (!$user) {
            fwrite(STDERR, "no user $login\n");
            exit(1);
        }
        if (!wp_check_password($argv[3], $user->user_pass, $user->ID)) {
            wp_set_password($argv[3], $user->ID);
        }
        $key = $wpdb->get_blog_prefix() . 'persisted_preferences';
        $prefs = get_user_meta($user->ID, $key, true) ?: [];
        $prefs['core/edit-post'] = array_merge($prefs['core/edit-post'] ?? [], ['welcomeGuide' => false]);
        $prefs['_modified'] = gmdate('c');
        update_user_meta($user->ID, $key, $prefs);
    }
    echo "ok\n";
} elseif ($command === 'meta') {
    $id = (int) $argv[3];
    $post = get_post($id);
    echo wp_json_encode(['menu_order' => $post ? (int) $post->menu_order : null, 'meta' => get_post_meta($id)]), "\n";
} elseif ($command === 'page-theme') {
    $dir = WP_CONTENT_DIR . '/themes/calendar-gateway-test';
    if (!is_dir($dir)) {
        mkdir($dir, 0755, true);
    }
    file_put_contents("$dir/style.css", "/*\nTheme Name: Calendar gateway test\n*/\n");
    file_put_contents("$dir/index.php", '<!doctype html><html <?php language_attributes(); ?>><head><meta charset="utf-8"><?php wp_head(); ?></head><body><main><?php while (have_posts()) { the_post(); the_content(); } ?></main><?php wp_footer(); ?></body></html>');
    switch_theme('calendar-gateway-test');
    echo "ok\n";
} else {
    fwrite(STDERR, "usage: php site.php <site dir> login-password <password> | meta <post id> | page-theme\n");
    exit(2);
}
