<?php
// ---------------------------------------------------------------------------------------------------------------
// RECURRING EVENTS: a series' overrides are events whose `series_parent` meta (the mapping's key) holds the series'
// id. wp/v2 filters no meta, so the list filter `calendar_gateway_series=<id>` finds them (the gateway's writes with
// a scope read them: a series deleted or split takes its overrides along).
// ---------------------------------------------------------------------------------------------------------------

const CALENDAR_GATEWAY_SERIES_QUERY = 'calendar_gateway_series';

add_action('init', static function (): void {
    $mapping = calendar_gateway_mapping();
    $type = $mapping['event']['postType'] ?? null;
    $key = $mapping['event']['fields']['series_parent']['meta'] ?? null;
    if (!is_string($type) || !is_string($key)) {
        return;
    }
    add_filter("rest_{$type}_query", static function (array $args, WP_REST_Request $request) use ($key): array {
        $series = $request->get_param(CALENDAR_GATEWAY_SERIES_QUERY);
        if ($series !== null && $series !== '') {
            $args['meta_query'] = array_merge($args['meta_query'] ?? [], [
                ['key' => $key, 'value' => (string) (int) $series],
            ]);
        }
        return $args;
    }, 10, 2);
    add_filter("rest_{$type}_collection_params", static function (array $params): array {
        $params[CALENDAR_GATEWAY_SERIES_QUERY] = [
            'description' => 'Limit results to the overrides of one recurring series (its post id).',
            'type' => 'integer',
        ];
        return $params;
    });
}, 20);
