<?php
// Deleting the plugin in wp-admin removes its settings (the webhook, the chosen mapping, the last notification).

defined('WP_UNINSTALL_PLUGIN') || exit;

foreach (['calendar_gateway_webhook', 'calendar_gateway_mapping', 'calendar_gateway_last_notification'] as $option) {
    delete_option($option);
}
