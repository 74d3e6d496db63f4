<?php
// Headless, idempotent WordPress install: wp_install() once, pretty permalinks, the five test users and their
// application password, and their wp-login.php password.
// Usage: php install.php <site dir> <port> <application password (alphanumeric)> <login password>

if ($argc !== 5) {
    fwrite(STDERR, "usage: php install.php <site dir> <port> <application password> <login password>\n");
    exit(2);
}
[, $site, $port, $password, $loginPassword] = $argv;

define('WP_INSTALLING', true); // keeps wp-settings.php from redirecting to the web installer
$_SERVER['HTTP_HOST'] = '127.0.0.1:' . $port;
$_SERVER['REQUEST_URI'] = '/';
require $site . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';

if (!is_blog_installed()) {
    $result = wp_install('Calendar gateway upstream', 'admin', 'admin@example.test', false, '', wp_generate_password(32, false));
    if (is_wp_error($result)) {
        fwrite(STDERR, 'wp_install failed: ' . $result->get_error_message() . "\n");
        exit(1);
    }
}

global $wp_rewrite;
if (get_option('permalink_structure') !== '/%postname%/') {
    $wp_rewrite->set_permalink_structure('/%postname%/');
    flush_rewrite_rules(false); // false: there is no .htaccess to write
}

// Same plain password for every user, stored the way WP_Application_Passwords::create_new_application_password
// stores a generated one (WP 6.1: uuid, app_id, name, password hash, created, last_used, last_ip).
$logins = ['admin' => 'administrator', 'editor' => 'editor', 'author' => 'author', 'contributor' => 'contributor',
    'subscriber' => 'subscriber'];
foreach ($logins as $login => $role) {
    $user = get_user_by('login', $login);
    if (!$user) {
        $id = wp_insert_user([
            'user_login' => $login,
            'user_pass' => wp_generate_password(32, false),
            'user_email' => $login . '@example.test',
            'display_name' => ucfirst($login),
            'role' => $role,
        ]);
        if (is_wp_error($id)) {
            fwrite(STDERR, "creating user $login failed: " . $id->get_error_message() . "\n");
            exit(1);
        }
        $user = get_user_by('id', $id);
    } elseif (!in_array($role, $user->roles, true)) {
        $user->set_role($role);
    }
    // The login password (wp-login.php refuses application passwords); reset only when it changed, since setting it
    // ends the user's sessions.
    if (!wp_check_password($loginPassword, $user->user_pass, $user->ID)) {
        wp_set_password($loginPassword, $user->ID);
    }
    $existing = WP_Application_Passwords::get_user_application_passwords($user->ID);
    $current = array_values(array_filter($existing, static fn ($item) => ($item['name'] ?? '') === 'calendar-gateway'));
    // Rehashing on every start would be harmless but would change the stored row; keep it when it still matches.
    if (count($existing) === 1 && count($current) === 1 && wp_check_password($password, $current[0]['password'], $user->ID)) {
        continue;
    }
    update_user_meta($user->ID, WP_Application_Passwords::USERMETA_KEY_APPLICATION_PASSWORDS, [[
        'uuid' => wp_generate_uuid4(),
        'app_id' => '',
        'name' => 'calendar-gateway',
        'password' => wp_hash_password($password),
        'created' => time(),
        'last_used' => null,
        'last_ip' => null,
    ]]);
}
// wp_authenticate_application_password() ignores application passwords until this flag is set.
update_network_option(get_main_network_id(), WP_Application_Passwords::OPTION_KEY_IN_USE, true);

echo "installed\n";
