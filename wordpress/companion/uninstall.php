<?php
// Deleting the plugin in wp-admin removes its settings (the webhook, the chosen mapping, the last notification).

defined('WP_UNINSTALL_PLUGIN') || exit;

foreach (['calendar_gateway_webhook', 'calendar_gateway_mapping', 'calendar_gateway_last_notification'] as $option) {
    delete_option($option);
}
// The uploads sweep (uploads.php): its schedule, and the notes of files it has not looked at yet.
wp_clear_scheduled_hook('calendar_gateway_sweep_uploads');
global $wpdb;
foreach ($wpdb->get_col($wpdb->prepare("SELECT option_name FROM {$wpdb->options} WHERE option_name LIKE %s", $wpdb->esc_like('calendar_gateway_upload_') . '%')) as $option) {
    delete_option($option);
}
