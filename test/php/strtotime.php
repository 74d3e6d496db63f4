<?php
// Reads [[text, now, zone], …] as JSON on stdin and prints PHP's strtotime(text, now) for each (an int, or false),
// with `zone` as the default time zone: the oracle of src/dates/strtotime.test.ts.
$cases = json_decode(stream_get_contents(STDIN), true, 512, JSON_THROW_ON_ERROR);
$answers = [];
foreach ($cases as [$text, $now, $zone]) {
    date_default_timezone_set($zone);
    $answers[] = strtotime($text, $now);
}
echo json_encode($answers, JSON_THROW_ON_ERROR);
