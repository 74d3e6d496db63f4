<?php
// Router for `php -S`: serves real files, sends everything else to WordPress's index.php, adds Content-Length.

$docroot = $_SERVER['DOCUMENT_ROOT'];
$path = urldecode((string) parse_url($_SERVER['REQUEST_URI'] ?? '/', PHP_URL_PATH));
$file = $docroot . $path;

// Existing files (assets, wp-login.php, wp-admin/…) and directories with an index.php are the server's job.
if ($path !== '/' && (is_file($file) || (is_dir($file) && is_file(rtrim($file, '/') . '/index.php')))) {
    return false;
}

// php -S answers Connection: close without a length; some load tools then count no responses (pitfall 9).
// Shutdown functions run before output buffers are flushed, and this one is registered before WordPress's.
ob_start();
register_shutdown_function(static function (): void {
    // A HEAD answer has no body here, so its length would be a wrong 0: leave HEAD alone.
    if (!headers_sent() && ($_SERVER['REQUEST_METHOD'] ?? 'GET') !== 'HEAD') {
        header('Content-Length: ' . ob_get_length());
    }
});

// What Apache's WordPress .htaccess rewrite does.
$_SERVER['SCRIPT_NAME'] = '/index.php';
$_SERVER['PHP_SELF'] = '/index.php';
$_SERVER['SCRIPT_FILENAME'] = $docroot . '/index.php';
chdir($docroot);
require $docroot . '/index.php';
