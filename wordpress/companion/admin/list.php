<?php
// The events list in wp-admin (edit.php of the mapping's event post type): Start, End and Venue columns, sorting by
// start, and an upcoming/past filter. Keys come from the mapping; with TEC active, TEC's own list is there instead.

defined('ABSPATH') || exit;

/**
 * What the list needs from the mapping: post types, the start/end keys (the UTC ones where the mapping has them, for
 * sorting and filtering), the venue key and the all-day key. Null when the list gets nothing.
 */
function calendar_gateway_list_keys(): ?array
{
    if (class_exists('Tribe__Events__Main')) {
        return null;
    }
    $mapping = calendar_gateway_mapping();
    $fields = $mapping['event']['fields'] ?? [];
    $meta = static fn (string $field): ?string => isset($fields[$field]['meta']) ? (string) $fields[$field]['meta'] : null;
    if (empty($mapping['event']['postType']) || $meta('start_date') === null) {
        return null;
    }
    $utcStart = $meta('utc_start_date');
    $utcEnd = $meta('utc_end_date');
    return [
        'type' => (string) $mapping['event']['postType'],
        'venueType' => (string) ($mapping['venue']['postType'] ?? ''),
        'start' => $meta('start_date'),
        'end' => $meta('end_date'),
        'allDay' => $meta('all_day'),
        'allDayFormat' => (string) ($fields['all_day']['format'] ?? 'bool'),
        'venue' => $meta('venue'),
        'recurrence' => $meta('recurrence'),
        'timezone' => $meta('timezone'),
        // Sorting and the filter compare stored wall-clock strings: UTC ones with the UTC clock where there are such
        // keys, else the local ones with the site's clock.
        'sortStart' => $utcStart ?? $meta('start_date'),
        'sortEnd' => $utcStart !== null ? ($utcEnd ?? $utcStart) : ($meta('end_date') ?? $meta('start_date')),
        'utc' => $utcStart !== null,
    ];
}

/** A stored `Y-m-d H:i:s` as a <time> in the site's date and time formats (the date only for all-day events). */
function calendar_gateway_list_time(string $value, bool $allDay): string
{
    $ts = strtotime($value . ' UTC');
    if ($value === '' || $ts === false) {
        return '—';
    }
    $format = $allDay ? get_option('date_format') : get_option('date_format') . ' ' . get_option('time_format');
    return sprintf('<time datetime="%s">%s</time>', esc_attr(gmdate('Y-m-d\TH:i:s', $ts)), esc_html(gmdate($format, $ts)));
}

/**
 * A series' "Repeats …" line under its start. The words are recurrence.js's (the panel's, the same as the gateway's
 * `recurrence.text`), filled in by the list's script from the stored rule; without scripts it says "Repeats".
 */
function calendar_gateway_list_repeats(array $keys, int $post_id, string $start, bool $allDay): string
{
    $rule = $keys['recurrence'] !== null ? (string) get_post_meta($post_id, $keys['recurrence'], true) : '';
    if ($rule === '' || $start === '') {
        return '';
    }
    $zone = $keys['timezone'] !== null ? (string) get_post_meta($post_id, $keys['timezone'], true) : '';
    return sprintf(
        '<div class="calendar-gateway-repeats" data-rule="%s" data-start="%s" data-timezone="%s" data-all-day="%d">%s</div>',
        esc_attr($rule),
        esc_attr($start),
        esc_attr($zone !== '' ? $zone : calendar_gateway_site_timezone()),
        $allDay ? 1 : 0,
        esc_html__('Repeats', 'calendar-gateway-companion')
    );
}

add_action('admin_enqueue_scripts', static function (string $hook): void {
    $keys = calendar_gateway_list_keys();
    if ($hook !== 'edit.php' || $keys === null || $keys['recurrence'] === null || (get_current_screen()->post_type ?? '') !== $keys['type']) {
        return;
    }
    $handle = 'calendar-gateway-recurrence';
    wp_enqueue_script($handle, plugins_url('recurrence.js', __FILE__), [], (string) filemtime(__DIR__ . '/recurrence.js'), true);
    // "Repeats" + the words with their first letter lowered: "Repeats every Tuesday until 30 June 2027".
    wp_add_inline_script($handle, <<<'JS'
document.querySelectorAll('.calendar-gateway-repeats[data-rule]').forEach((node) => {
  const R = window.calendarGatewayRecurrence;
  const d = node.dataset;
  const start = { start: d.start, timezone: d.timezone, allDay: d.allDay === '1' };
  const words = R.describe(R.parseText(d.rule), start);
  node.textContent = `${node.textContent} ${words.charAt(0).toLowerCase()}${words.slice(1)}`;
});
JS);
});

add_action('admin_init', static function (): void {
    $keys = calendar_gateway_list_keys();
    if ($keys === null) {
        return;
    }
    $type = $keys['type'];

    add_filter("manage_{$type}_posts_columns", static function (array $columns): array {
        $out = [];
        foreach ($columns as $name => $label) {
            $out[$name] = $label;
            if ($name === 'title') {
                $out['calendar_gateway_start'] = __('Start', 'calendar-gateway-companion');
                $out['calendar_gateway_end'] = __('End', 'calendar-gateway-companion');
                $out['calendar_gateway_venue'] = __('Venue', 'calendar-gateway-companion');
            }
        }
        return $out;
    });

    add_action("manage_{$type}_posts_custom_column", static function (string $column, int $post_id) use ($keys): void {
        $allDay = false;
        if ($keys['allDay'] !== null) {
            $flag = (string) get_post_meta($post_id, $keys['allDay'], true);
            $allDay = $keys['allDayFormat'] === 'yes-flag' ? $flag === 'yes' : !in_array($flag, ['', '0', 'no'], true);
        }
        if ($column === 'calendar_gateway_start') {
            $start = (string) get_post_meta($post_id, $keys['start'], true);
            echo calendar_gateway_list_time($start, $allDay);
            echo calendar_gateway_list_repeats($keys, $post_id, $start, $allDay);
        } elseif ($column === 'calendar_gateway_end') {
            echo $keys['end'] !== null
                ? calendar_gateway_list_time((string) get_post_meta($post_id, $keys['end'], true), $allDay)
                : '—';
        } elseif ($column === 'calendar_gateway_venue') {
            $venue = $keys['venue'] !== null ? get_post((int) get_post_meta($post_id, $keys['venue'], true)) : null;
            if (!$venue || $venue->post_type !== $keys['venueType']) {
                echo '—';
                return;
            }
            $title = esc_html(get_the_title($venue));
            $link = get_edit_post_link($venue);
            echo $link
                ? sprintf('<a href="%s" data-venue-id="%d">%s</a>', esc_url($link), (int) $venue->ID, $title)
                : sprintf('<span data-venue-id="%d">%s</span>', (int) $venue->ID, $title);
        }
    }, 10, 2);

    add_filter("manage_edit-{$type}_sortable_columns", static function (array $columns): array {
        // First click sorts the earliest first.
        $columns['calendar_gateway_start'] = ['calendar_gateway_start', false];
        return $columns;
    });

    add_action('restrict_manage_posts', static function (string $post_type) use ($type): void {
        if ($post_type !== $type) {
            return;
        }
        $current = sanitize_key((string) wp_unslash($_GET['calendar_gateway_when'] ?? ''));
        echo '<label for="calendar-gateway-when" class="screen-reader-text">' . esc_html__('Filter by date', 'calendar-gateway-companion') . '</label>';
        echo '<select name="calendar_gateway_when" id="calendar-gateway-when">';
        foreach ([
            '' => __('Upcoming and past', 'calendar-gateway-companion'),
            'upcoming' => __('Upcoming', 'calendar-gateway-companion'),
            'past' => __('Past', 'calendar-gateway-companion'),
        ] as $value => $label) {
            printf('<option value="%s"%s>%s</option>', esc_attr($value), selected($current, $value, false), esc_html($label));
        }
        echo '</select>';
    });

    add_action('pre_get_posts', static function (WP_Query $query) use ($keys, $type): void {
        if (!is_admin() || !$query->is_main_query() || $query->get('post_type') !== $type) {
            return;
        }
        $metaQuery = (array) ($query->get('meta_query') ?: []);
        $when = sanitize_key((string) wp_unslash($_GET['calendar_gateway_when'] ?? ''));
        if ($when === 'upcoming' || $when === 'past') {
            // Upcoming: not over yet (its end, or its start without an end, is now or later). Past: over.
            $now = $keys['utc'] ? gmdate('Y-m-d H:i:s') : current_time('mysql');
            $compare = $when === 'upcoming' ? '>=' : '<';
            $clause = static fn (string $key): array => ['key' => $key, 'value' => $now, 'compare' => $compare, 'type' => 'DATETIME'];
            $metaQuery[] = $keys['sortEnd'] === $keys['sortStart'] ? $clause($keys['sortStart']) : [
                'relation' => 'OR',
                $clause($keys['sortEnd']),
                ['relation' => 'AND', ['key' => $keys['sortEnd'], 'compare' => 'NOT EXISTS'], $clause($keys['sortStart'])],
            ];
        }
        if ($query->get('orderby') === 'calendar_gateway_start') {
            // A named clause that matches rows with and without a start: events without one still list (first).
            $metaQuery['calendar_gateway_start'] = [
                'relation' => 'OR',
                'calendar_gateway_has_start' => ['key' => $keys['sortStart'], 'compare' => 'EXISTS', 'type' => 'DATETIME'],
                ['key' => $keys['sortStart'], 'compare' => 'NOT EXISTS'],
            ];
            $query->set('orderby', ['calendar_gateway_has_start' => strtoupper((string) $query->get('order')) === 'DESC' ? 'DESC' : 'ASC', 'ID' => 'ASC']);
        }
        if ($metaQuery) {
            $query->set('meta_query', $metaQuery);
        }
    });
});
