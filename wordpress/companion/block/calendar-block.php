<?php
// The block "Calendar (gateway)": <calendar-gateway-view> on the configured gateway, with its view and filters set in
// the block sidebar (calendar-block.js). Rendered on the server, so the gateway's address is read at each view: the
// script is the bundle the gateway serves, loaded as an ES module, and the element reads the gateway's API.

defined('ABSPATH') || exit;

/**
 * The gateway's public base URL: the constant CALENDAR_GATEWAY_PUBLIC_URL, else the first gateway URL of the change
 * notifications without its /calendar-gateway/v1/notify path; filterable (`calendar_gateway_public_url`) for a
 * gateway WordPress reaches at another address than browsers do. '' when none is configured.
 */
function calendar_gateway_public_url(): string
{
    $url = defined('CALENDAR_GATEWAY_PUBLIC_URL') ? (string) CALENDAR_GATEWAY_PUBLIC_URL : '';
    if ($url === '') {
        $hook = calendar_gateway_webhook();
        $first = $hook ? (string) ($hook['urls'][0] ?? '') : '';
        if ($first === '') {
            $opt = get_option('calendar_gateway_webhook');
            $first = is_array($opt) ? (string) (preg_split('/[\s,]+/', (string) ($opt['url'] ?? ''), -1, PREG_SPLIT_NO_EMPTY)[0] ?? '') : '';
        }
        $url = (string) preg_replace('#/calendar-gateway/v1/notify/?$#', '', $first);
    }
    $url = (string) apply_filters('calendar_gateway_public_url', $url);
    return $url === '' ? '' : untrailingslashit(esc_url_raw($url, ['http', 'https']));
}

const CALENDAR_GATEWAY_BLOCK_VIEWS = ['month', 'week', 'day', 'list'];

/** The element's markup for the block's attributes, or a notice when no gateway is configured. */
function calendar_gateway_render_block(array $attributes): string
{
    $gateway = calendar_gateway_public_url();
    if ($gateway === '') {
        return current_user_can('manage_options')
            ? '<p class="calendar-gateway-missing">' . esc_html__('Calendar (gateway): set the gateway URL in Settings → Calendar gateway.', 'calendar-gateway-companion') . '</p>'
            : '';
    }
    wp_enqueue_script('calendar-gateway-view', $gateway . '/calendar-gateway/v1/calendar/calendar-gateway-view.js', [], null, true);
    $view = in_array($attributes['view'] ?? '', CALENDAR_GATEWAY_BLOCK_VIEWS, true) ? $attributes['view'] : 'month';
    // The page's language picks the gateway's root: /es/wp-json on a Spanish site, as the gateway's second language.
    $lang = strtolower(substr((string) get_bloginfo('language'), 0, 2));
    $root = $gateway . ($lang === 'es' ? '/es/wp-json' : '/wp-json');
    $attrs = ['src' => $root, 'view' => $view, 'timezone' => calendar_gateway_site_zone_name()];
    foreach (['categories', 'tags', 'venue', 'search'] as $name) {
        $value = trim((string) ($attributes[$name] ?? ''));
        if ($value !== '') {
            $attrs[$name] = $value;
        }
    }
    $html = '';
    foreach ($attrs as $name => $value) {
        $html .= sprintf(' %s="%s"', $name, esc_attr($value));
    }
    return sprintf('<div %s><calendar-gateway-view%s></calendar-gateway-view></div>', get_block_wrapper_attributes(), $html);
}

/** The site's IANA zone, or '' for a manual UTC offset (the element then shows each event's own wall clock). */
function calendar_gateway_site_zone_name(): string
{
    return (string) get_option('timezone_string', '');
}

// The bundle is an ES module: its tag says so.
add_filter('script_loader_tag', static function (string $tag, string $handle): string {
    return $handle === 'calendar-gateway-view' ? str_replace('<script ', '<script type="module" ', $tag) : $tag;
}, 10, 2);

add_action('init', static function (): void {
    wp_register_script('calendar-gateway-calendar-block', plugins_url('calendar-block.js', __FILE__),
        ['wp-blocks', 'wp-block-editor', 'wp-components', 'wp-element', 'wp-i18n'],
        (string) filemtime(__DIR__ . '/calendar-block.js'), true);
    wp_set_script_translations('calendar-gateway-calendar-block', 'calendar-gateway-companion');
    wp_add_inline_script('calendar-gateway-calendar-block',
        'window.calendarGatewayBlock = ' . wp_json_encode(['gateway' => calendar_gateway_public_url()]) . ';', 'before');
    $text = ['type' => 'string', 'default' => ''];
    register_block_type('calendar-gateway/calendar', [
        'api_version' => 2,
        'title' => __('Calendar (gateway)', 'calendar-gateway-companion'),
        'description' => __('Month, week, day or list views of the calendar, from the calendar gateway.', 'calendar-gateway-companion'),
        'category' => 'widgets',
        'icon' => 'calendar-alt',
        'keywords' => ['calendar', 'events'],
        'supports' => ['html' => false, 'align' => ['wide', 'full']],
        'attributes' => [
            'view' => ['type' => 'string', 'enum' => CALENDAR_GATEWAY_BLOCK_VIEWS, 'default' => 'month'],
            'categories' => $text,
            'tags' => $text,
            'venue' => $text,
            'search' => $text,
        ],
        'editor_script' => 'calendar-gateway-calendar-block',
        'render_callback' => 'calendar_gateway_render_block',
    ]);
});
