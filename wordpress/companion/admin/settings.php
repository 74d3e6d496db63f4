<?php
// Settings → Calendar gateway: where change notifications go (URL, secret), a signed test notification and the
// gateway's answer, the last notification sent, and (installed as a plain plugin) which bundled mapping the site uses.

defined('ABSPATH') || exit;

const CALENDAR_GATEWAY_SETTINGS_PAGE = 'calendar-gateway';

/** The gateway's notify endpoint for what an admin typed: a gateway's base URL gets the endpoint's path. */
function calendar_gateway_notify_url(string $url): string
{
    $url = trim($url);
    $path = (string) wp_parse_url($url, PHP_URL_PATH);
    if ($url !== '' && ($path === '' || $path === '/')) {
        $url = rtrim($url, '/') . '/calendar-gateway/v1/notify';
    }
    return $url;
}

/** The webhook set in wp-config.php, which wins over the screen's setting (see calendar_gateway_webhook()). */
function calendar_gateway_webhook_in_config(): bool
{
    return defined('CALENDAR_GATEWAY_WEBHOOK_URL') && (string) CALENDAR_GATEWAY_WEBHOOK_URL !== ''
        && defined('CALENDAR_GATEWAY_WEBHOOK_SECRET') && (string) CALENDAR_GATEWAY_WEBHOOK_SECRET !== '';
}

/** One gateway's answer in words: accepted, refused (wrong secret), unreachable, or anything else with its status. */
function calendar_gateway_describe_result(array $r): string
{
    $status = (int) ($r['status'] ?? 0);
    $body = (string) ($r['body'] ?? '');
    $json = json_decode($body, true);
    $message = is_array($json) && isset($json['message']) ? (string) $json['message'] : $body;
    if ($status === 0) {
        /* translators: 1: gateway URL, 2: the HTTP client's error */
        return sprintf(__('%1$s: unreachable (%2$s)', 'calendar-gateway-companion'), $r['url'], $message);
    }
    if ($status >= 200 && $status < 300) {
        /* translators: 1: gateway URL, 2: HTTP status, 3: the gateway's answer */
        return sprintf(__('%1$s: accepted (HTTP %2$d) %3$s', 'calendar-gateway-companion'), $r['url'], $status, $body);
    }
    if ($status === 401) {
        /* translators: 1: gateway URL, 2: the gateway's message */
        return sprintf(__('%1$s: refused (HTTP 401): wrong secret? The gateway says: %2$s', 'calendar-gateway-companion'), $r['url'], $message);
    }
    /* translators: 1: gateway URL, 2: HTTP status, 3: the gateway's answer */
    return sprintf(__('%1$s: failed (HTTP %2$d) %3$s', 'calendar-gateway-companion'), $r['url'], $status, $message);
}

/** Whether every gateway accepted (2xx). */
function calendar_gateway_results_ok(array $results): bool
{
    foreach ($results as $r) {
        $status = (int) ($r['status'] ?? 0);
        if ($status < 200 || $status >= 300) {
            return false;
        }
    }
    return $results !== [];
}

/** A notice box listing each gateway's answer. */
function calendar_gateway_results_notice(string $id, string $title, array $results): void
{
    printf('<div id="%s" class="notice %s"><p><strong>%s</strong></p><ul>', esc_attr($id),
        calendar_gateway_results_ok($results) ? 'notice-success' : 'notice-error', esc_html($title));
    foreach ($results as $r) {
        printf('<li>%s</li>', esc_html(calendar_gateway_describe_result($r)));
    }
    echo '</ul></div>';
}

add_action('admin_menu', static function (): void {
    add_options_page(
        __('Calendar gateway', 'calendar-gateway-companion'),
        __('Calendar gateway', 'calendar-gateway-companion'),
        'manage_options',
        CALENDAR_GATEWAY_SETTINGS_PAGE,
        'calendar_gateway_settings_page'
    );
});

/** Back to the screen with a message key (a redirect after every POST: reloading never sends twice). */
function calendar_gateway_settings_redirect(string $message): void
{
    wp_safe_redirect(add_query_arg(['page' => CALENDAR_GATEWAY_SETTINGS_PAGE, 'calendar-gateway' => $message],
        admin_url('options-general.php')));
    exit;
}

add_action('admin_post_calendar_gateway_save', static function (): void {
    if (!current_user_can('manage_options')) {
        wp_die(esc_html__('Sorry, you are not allowed to manage these options.', 'calendar-gateway-companion'), 403);
    }
    check_admin_referer('calendar_gateway_save');
    $old = get_option('calendar_gateway_webhook');
    $old = is_array($old) ? $old : [];
    $urls = preg_split('/[\s,]+/', (string) wp_unslash($_POST['url'] ?? ''), -1, PREG_SPLIT_NO_EMPTY) ?: [];
    $clean = [];
    foreach ($urls as $url) {
        $url = esc_url_raw(calendar_gateway_notify_url($url), ['http', 'https']);
        if ($url === '') {
            calendar_gateway_settings_redirect('bad-url');
        }
        $clean[] = $url;
    }
    // A blank secret keeps the saved one: the page never shows it.
    $secret = trim((string) wp_unslash($_POST['secret'] ?? ''));
    if ($secret !== '' && strlen($secret) < 16) {
        calendar_gateway_settings_redirect('short-secret');
    }
    update_option('calendar_gateway_webhook', [
        'url' => implode(', ', $clean),
        'secret' => $secret !== '' ? $secret : (string) ($old['secret'] ?? ''),
    ]);
    $mapping = sanitize_key((string) wp_unslash($_POST['mapping'] ?? ''));
    if (!defined('CALENDAR_GATEWAY_MAPPING') && isset(calendar_gateway_bundled_mappings()[$mapping])) {
        update_option('calendar_gateway_mapping', $mapping);
    }
    calendar_gateway_settings_redirect('saved');
});

add_action('admin_post_calendar_gateway_test', static function (): void {
    if (!current_user_can('manage_options')) {
        wp_die(esc_html__('Sorry, you are not allowed to manage these options.', 'calendar-gateway-companion'), 403);
    }
    check_admin_referer('calendar_gateway_test');
    $hook = calendar_gateway_webhook();
    if ($hook === null) {
        calendar_gateway_settings_redirect('not-configured');
    }
    // No changes: the gateway checks the signature and the time, then has nothing to drop.
    $results = calendar_gateway_notify($hook, [], true, 5);
    set_transient('calendar_gateway_test_' . get_current_user_id(), $results, 300);
    calendar_gateway_settings_redirect('tested');
});

function calendar_gateway_settings_page(): void
{
    if (!current_user_can('manage_options')) {
        return;
    }
    $opt = get_option('calendar_gateway_webhook');
    $opt = is_array($opt) ? $opt : [];
    $has_secret = ((string) ($opt['secret'] ?? '')) !== '';
    $in_config = calendar_gateway_webhook_in_config();
    $message = sanitize_key((string) wp_unslash($_GET['calendar-gateway'] ?? ''));
    echo '<div class="wrap"><h1>' . esc_html__('Calendar gateway', 'calendar-gateway-companion') . '</h1>';

    $notices = [
        'saved' => ['success', __('Settings saved.', 'calendar-gateway-companion')],
        'bad-url' => ['error', __('Not saved: the gateway URL must be an http(s) URL.', 'calendar-gateway-companion')],
        'short-secret' => ['error', __('Not saved: the secret must have at least 16 characters (the gateway requires it).', 'calendar-gateway-companion')],
        'not-configured' => ['error', __('No test sent: set the gateway URL and the secret first.', 'calendar-gateway-companion')],
    ];
    if (isset($notices[$message])) {
        printf('<div id="calendar-gateway-notice" class="notice notice-%s"><p>%s</p></div>', esc_attr($notices[$message][0]),
            esc_html($notices[$message][1]));
    }
    if ($message === 'tested') {
        $key = 'calendar_gateway_test_' . get_current_user_id();
        $results = get_transient($key);
        delete_transient($key);
        if (is_array($results)) {
            calendar_gateway_results_notice('calendar-gateway-test-result',
                __('Test notification sent. The gateway answered:', 'calendar-gateway-companion'), $results);
        }
    }

    echo '<h2>' . esc_html__('Change notifications', 'calendar-gateway-companion') . '</h2>';
    echo '<p>' . esc_html__('When an event, venue, organizer or their terms change, WordPress tells the gateway (a signed POST to its /calendar-gateway/v1/notify), so that it shows the change at once. The secret is the gateway\'s WEBHOOK_SECRET.', 'calendar-gateway-companion') . '</p>';
    if ($in_config) {
        echo '<div class="notice notice-info inline"><p>' . esc_html__('CALENDAR_GATEWAY_WEBHOOK_URL and CALENDAR_GATEWAY_WEBHOOK_SECRET are set in wp-config.php: they are used instead of the fields below.', 'calendar-gateway-companion') . '</p></div>';
    }
    echo '<form method="post" action="' . esc_url(admin_url('admin-post.php')) . '">';
    echo '<input type="hidden" name="action" value="calendar_gateway_save">';
    wp_nonce_field('calendar_gateway_save');
    echo '<table class="form-table" role="presentation"><tbody>';
    printf('<tr><th scope="row"><label for="calendar-gateway-url">%s</label></th><td><input type="text" class="regular-text code" id="calendar-gateway-url" name="url" value="%s" placeholder="https://calendar.example.com"><p class="description">%s</p></td></tr>',
        esc_html__('Gateway URL', 'calendar-gateway-companion'), esc_attr((string) ($opt['url'] ?? '')),
        esc_html__('The gateway\'s address (its /calendar-gateway/v1/notify is added). Several gateways: separate them with commas.', 'calendar-gateway-companion'));
    printf('<tr><th scope="row"><label for="calendar-gateway-secret">%s</label></th><td><input type="password" class="regular-text" id="calendar-gateway-secret" name="secret" value="" autocomplete="new-password"><p class="description">%s</p></td></tr>',
        esc_html__('Secret', 'calendar-gateway-companion'),
        esc_html($has_secret
            ? __('A secret is saved (not shown). Leave blank to keep it.', 'calendar-gateway-companion')
            : __('No secret saved yet: at least 16 characters, the same as the gateway\'s WEBHOOK_SECRET.', 'calendar-gateway-companion')));
    $bundled = calendar_gateway_bundled_mappings();
    if (defined('CALENDAR_GATEWAY_MAPPING')) {
        printf('<tr><th scope="row">%s</th><td><code>%s</code><p class="description">%s</p></td></tr>',
            esc_html__('Mapping', 'calendar-gateway-companion'), esc_html(basename((string) CALENDAR_GATEWAY_MAPPING)),
            esc_html__('Set by CALENDAR_GATEWAY_MAPPING in wp-config.php.', 'calendar-gateway-companion'));
    } elseif ($bundled) {
        $current = (string) get_option('calendar_gateway_mapping', 'tec');
        printf('<tr><th scope="row"><label for="calendar-gateway-mapping">%s</label></th><td><select id="calendar-gateway-mapping" name="mapping">',
            esc_html__('Mapping', 'calendar-gateway-companion'));
        foreach (array_keys($bundled) as $name) {
            printf('<option value="%s"%s>%s</option>', esc_attr($name), selected($current, $name, false), esc_html($name));
        }
        printf('</select><p class="description">%s</p></td></tr>', esc_html__('Where the site keeps its events: tec = The Events Calendar\'s post types and meta keys; the gateway must use the same mapping (its MAPPING).', 'calendar-gateway-companion'));
    }
    echo '</tbody></table>';
    submit_button(__('Save Changes', 'calendar-gateway-companion'));
    echo '</form>';

    echo '<form method="post" action="' . esc_url(admin_url('admin-post.php')) . '">';
    echo '<input type="hidden" name="action" value="calendar_gateway_test">';
    wp_nonce_field('calendar_gateway_test');
    submit_button(__('Send test notification', 'calendar-gateway-companion'), 'secondary', 'calendar-gateway-test', false);
    echo '</form>';

    echo '<h2>' . esc_html__('Last notification', 'calendar-gateway-companion') . '</h2>';
    $last = get_option('calendar_gateway_last_notification');
    echo '<div id="calendar-gateway-last">';
    if (is_array($last) && !empty($last['time'])) {
        $when = wp_date(get_option('date_format') . ' ' . get_option('time_format') . ' T', (int) $last['time']);
        $what = !empty($last['test'])
            ? __('test notification', 'calendar-gateway-companion')
            /* translators: %d: number of changes */
            : sprintf(_n('%d change', '%d changes', (int) $last['changes'], 'calendar-gateway-companion'), (int) $last['changes']);
        printf('<p><time datetime="%s">%s</time> (%s)</p><ul>', esc_attr(gmdate('c', (int) $last['time'])), esc_html($when), esc_html($what));
        foreach ((array) ($last['results'] ?? []) as $r) {
            printf('<li>%s</li>', esc_html(calendar_gateway_describe_result((array) $r)));
        }
        echo '</ul>';
    } else {
        echo '<p>' . esc_html__('No notification sent yet.', 'calendar-gateway-companion') . '</p>';
    }
    echo '</div></div>';
}
