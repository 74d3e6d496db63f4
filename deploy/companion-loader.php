<?php
// mu-plugins/calendar-gateway-companion.php: WordPress loads only the files at mu-plugins' top, so this one loads the
// companion plugin's folder (mounted beside it by deploy/compose.yaml; wordpress/wp.sh writes the same file).
require_once __DIR__ . '/calendar-gateway-companion/calendar-gateway-companion.php';
