<?php
// Runs the companion's sweep of uploads left by gateway media creates that died, now, for notes older than AGE
// seconds (0: all), and prints the files it removed as JSON.
//   php sweep-uploads.php SITE_DIR AGE
if ($argc < 3) {
    fwrite(STDERR, "usage: sweep-uploads.php SITE_DIR AGE\n");
    exit(2);
}
[, $site, $age] = $argv;
define('WP_USE_THEMES', false);
require $site . '/wp-load.php';
echo wp_json_encode(calendar_gateway_sweep_uploads((int) $age)), "\n";
