<?php
// Block-editor panels for sites without TEC: Event details, Venue details, Organizer details, in the mapping's keys.
// The script (panels.js) edits the meta the mapping names; the derived keys (UTC dates, duration, time zone
// abbreviation) are computed here on every save, so the panel, quick edit and REST
// writes (the gateway's included) store the same data.

defined('ABSPATH') || exit;

const CALENDAR_GATEWAY_TEXT_DOMAIN = 'calendar-gateway-companion';

/** TEC's own screens are there when TEC runs: then the companion adds none of its own. */
function calendar_gateway_panels_wanted(): bool
{
    return !class_exists('Tribe__Events__Main') && calendar_gateway_mapping() !== null;
}

/** The mapping's meta source of a field (`['meta' => key, 'format' => …, 'default' => …]`), or null. */
function calendar_gateway_meta_source(string $kind, string $field): ?array
{
    $src = calendar_gateway_mapping()[$kind]['fields'][$field] ?? null;
    if (!is_array($src) || empty($src['meta'])) {
        return null;
    }
    return ['meta' => (string) $src['meta'], 'format' => (string) ($src['format'] ?? 'string'), 'default' => $src['default'] ?? null];
}

/** A single stored value as text ('' when absent). */
function calendar_gateway_stored(int $post_id, ?array $src): string
{
    return $src === null ? '' : (string) get_post_meta($post_id, $src['meta'], true);
}

/** Writes a derived value when the mapping has its key and it changed. */
function calendar_gateway_store(int $post_id, ?array $src, string $value): void
{
    if ($src !== null && (string) get_post_meta($post_id, $src['meta'], true) !== $value) {
        update_post_meta($post_id, $src['meta'], $value);
    }
}

/** Stores a flag as the gateway's write does (encodeMeta): yes/one flags as a row or none, `bool` as '1' or ''. */
function calendar_gateway_store_flag(int $post_id, ?array $src, bool $on): void
{
    if ($src === null) {
        return;
    }
    if ($src['format'] === 'bool') {
        calendar_gateway_store($post_id, $src, $on ? '1' : '');
    } elseif ($on) {
        calendar_gateway_store($post_id, $src, $src['format'] === 'yes-flag' ? 'yes' : '1');
    } elseif (metadata_exists('post', $post_id, $src['meta'])) {
        delete_post_meta($post_id, $src['meta']);
    }
}

/** A flag as the mapping's format reads it (see decodeMeta in src/mapping/codec.ts). */
function calendar_gateway_flag(int $post_id, ?array $src): bool
{
    if ($src === null) {
        return false;
    }
    if (!metadata_exists('post', $post_id, $src['meta'])) {
        return $src['format'] === 'bool' ? (bool) $src['default'] : false;
    }
    $v = get_post_meta($post_id, $src['meta'], true);
    return !in_array($v, ['', '0', 'false'], true);
}

/** The site's time zone as the gateway names it: `timezone_string`, else `UTC±N` from gmt_offset. */
function calendar_gateway_site_timezone(): string
{
    $name = (string) get_option('timezone_string');
    if ($name !== '') {
        return $name;
    }
    $offset = (float) get_option('gmt_offset');
    if ($offset == 0) {
        return 'UTC';
    }
    $hours = (int) $offset;
    $minutes = (int) round(abs($offset - $hours) * 60);
    return 'UTC' . ($offset < 0 ? '-' : '+') . abs($hours) . ($minutes ? sprintf(':%02d', $minutes) : '');
}

/** A PHP DateTimeZone for a stored zone name (IANA, `UTC`, or a manual `UTC±N[:MM]`), or null. */
function calendar_gateway_zone(string $name): ?DateTimeZone
{
    if (preg_match('/^(?:UTC|GMT)?\s*([+-])(\d{1,2})(?::?(\d{2})|\.(\d+))?$/i', $name, $m)) {
        $minutes = isset($m[4]) && $m[4] !== '' ? (int) round(((float) ('0.' . $m[4])) * 60) : (int) ($m[3] ?? 0);
        return new DateTimeZone(sprintf('%s%02d:%02d', $m[1], (int) $m[2], $minutes));
    }
    try {
        return new DateTimeZone($name);
    } catch (Exception $e) {
        return null;
    }
}

/**
 * An event's dates as the gateway's write stores them (src/dates/write.ts): all-day days widened to 00:00:00 and
 * 23:59:59, an end before the start moved to the start, the zone defaulting to the site's, and the UTC copies,
 * duration and abbreviation computed from the local dates and the zone.
 */
function calendar_gateway_derive_event(int $post_id): void
{
    $start_src = calendar_gateway_meta_source('event', 'start_date');
    $end_src = calendar_gateway_meta_source('event', 'end_date');
    $tz_src = calendar_gateway_meta_source('event', 'timezone');
    $start = calendar_gateway_stored($post_id, $start_src);
    if (!preg_match('/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/', $start)) {
        return;
    }
    $end = calendar_gateway_stored($post_id, $end_src);
    if (!preg_match('/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/', $end)) {
        $end = $start;
    }
    $tz = calendar_gateway_stored($post_id, $tz_src);
    if ($tz === '') {
        $tz = calendar_gateway_site_timezone();
    }
    $zone = calendar_gateway_zone($tz);
    if ($zone === null) {
        return;
    }
    $all_day_src = calendar_gateway_meta_source('event', 'all_day');
    $all_day = calendar_gateway_flag($post_id, $all_day_src);
    if ($all_day) {
        $start = substr($start, 0, 10) . ' 00:00:00';
        $end = substr($end, 0, 10) . ' 23:59:59';
    }
    if ($end < $start) {
        $end = $start;
    }
    $utc = new DateTimeZone('UTC');
    $local_start = new DateTime($start, $zone);
    $local_end = new DateTime($end, $zone);
    $manual = preg_match('/^(UTC|GMT)?\s*[+-]/i', $tz) === 1;
    if ($tz === 'UTC') {
        $abbr = 'UTC';
    } elseif ($manual) {
        $abbr = $tz;
    } else {
        $abbr = $local_start->format('T');
    }
    calendar_gateway_store($post_id, $start_src, $start);
    calendar_gateway_store($post_id, $end_src, $end);
    calendar_gateway_store($post_id, $tz_src, $tz);
    calendar_gateway_store_flag($post_id, $all_day_src, $all_day);
    calendar_gateway_store($post_id, calendar_gateway_meta_source('event', 'utc_start_date'), (clone $local_start)->setTimezone($utc)->format('Y-m-d H:i:s'));
    calendar_gateway_store($post_id, calendar_gateway_meta_source('event', 'utc_end_date'), (clone $local_end)->setTimezone($utc)->format('Y-m-d H:i:s'));
    calendar_gateway_store($post_id, calendar_gateway_meta_source('event', 'duration'), (string) ($local_end->getTimestamp() - $local_start->getTimestamp()));
    calendar_gateway_store($post_id, calendar_gateway_meta_source('event', 'timezone_abbr'), $abbr);

    // A currency symbol without a position is a prefix, as TEC's own default and the gateway's "$20" have it.
    $symbol = calendar_gateway_meta_source('event', 'currency_symbol');
    $position = calendar_gateway_meta_source('event', 'currency_position');
    if ($position !== null && calendar_gateway_stored($post_id, $symbol) !== '' && calendar_gateway_stored($post_id, $position) === '') {
        calendar_gateway_store($post_id, $position, 'prefix');
    }
}

add_action('init', static function (): void {
    if (!calendar_gateway_panels_wanted()) {
        return;
    }
    // After every save path (block editor, REST, quick edit): wp_after_insert_post runs once meta and terms are in.
    add_action('wp_after_insert_post', static function ($post_id, $post): void {
        if ((calendar_gateway_post_types()[$post->post_type] ?? null) === 'event') {
            calendar_gateway_derive_event((int) $post_id);
        }
    }, 10, 2);
}, 30);

/** What the script needs to know: the mapping's fields of each kind, the linked types, the zones, the user's rights. */
function calendar_gateway_panels_config(string $kind): array
{
    $mapping = calendar_gateway_mapping();
    $linked = [];
    foreach (['venue', 'organizer'] as $which) {
        $type = (string) $mapping[$which]['postType'];
        $object = get_post_type_object($type);
        $linked[$which] = [
            'postType' => $type,
            'restBase' => (string) ($mapping[$which]['restBase'] ?? $type),
            'canCreate' => $object !== null && current_user_can($object->cap->create_posts),
            'canPublish' => $object !== null && current_user_can($object->cap->publish_posts),
        ];
    }
    $zones = timezone_identifiers_list();
    $site = calendar_gateway_site_timezone();
    if (!in_array($site, $zones, true)) {
        array_unshift($zones, $site);
    }
    return [
        'kind' => $kind,
        'restBase' => (string) ($mapping[$kind]['restBase'] ?? $mapping[$kind]['postType']),
        'fields' => $mapping[$kind]['fields'] ?? [],
        'linked' => $linked,
        'siteTimezone' => $site,
        'timezones' => $zones,
    ];
}

add_action('enqueue_block_editor_assets', static function (): void {
    if (!calendar_gateway_panels_wanted()) {
        return;
    }
    $screen = get_current_screen();
    $kind = $screen ? (calendar_gateway_post_types()[$screen->post_type] ?? null) : null;
    if ($kind === null) {
        return;
    }
    // Small scripts on WordPress's own wp.* globals, in order: formats, the picker, the rule, the Repeat section, the panels.
    $deps = ['wp-plugins', 'wp-edit-post', 'wp-editor', 'wp-element', 'wp-components', 'wp-data', 'wp-api-fetch', 'wp-i18n', 'wp-html-entities'];
    foreach (['meta-fields', 'linked-picker', 'recurrence', 'repeat', 'panels'] as $name) {
        $handle = "calendar-gateway-$name";
        wp_enqueue_script($handle, plugins_url("$name.js", __FILE__), $deps, (string) filemtime(__DIR__ . "/$name.js"), true);
        wp_set_script_translations($handle, CALENDAR_GATEWAY_TEXT_DOMAIN);
        $deps = [$handle];
    }
    wp_add_inline_script('calendar-gateway-meta-fields', 'window.calendarGatewayPanels = ' . wp_json_encode(calendar_gateway_panels_config($kind)) . ';', 'before');
});
