// The token patterns of PHP's date parser (timelib's parse_date.re), as anchored regular expressions, in its order.

/** `'word'` in re2c is case-insensitive; `"word"` is not. */
const ci = (word: string) => word.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`);
/** An alternation of case-insensitive words, longest first, since a regular expression takes the first that fits. */
const words = (...list: string[]) =>
  `(?:${[...list]
    .sort((a, b) => b.length - a.length)
    .map(ci)
    .join('|')})`;

const space = '(?:[ \\t]+|\\u00a0+|\\u202f+)';
const frac = '\\.[0-9]+';
const hour24 = '(?:2[0-4]|[01]?[0-9])';
const hour24lz = '(?:[01][0-9]|2[0-4])';
const hour12 = '(?:1[0-2]|0?[1-9])';
const minute = '[0-5]?[0-9]';
const minutelz = '[0-5][0-9]';
const second = '(?:60|[0-5]?[0-9])';
const secondlz = '(?:60|[0-5][0-9])';
const meridian = '[AaPp]\\.?[Mm]\\.?[\\0\\t ]';
const tz = '(?:[A-Z][a-z]+(?:[_/-][A-Za-z]+)+|\\(?[A-Za-z]{1,6}\\)?)';
const tzcorrection = `(?:GMT)?[+-](?:${hour24lz}:${minutelz}:${secondlz}|${hour24lz}${minutelz}${secondlz}|${hour24}(?::?${minute})?)`;
const daysuf = '(?:st|nd|rd|th)';
const month = '(?:1[0-2]|0?[0-9])';
const day = `(?:(?:3[01]|[0-2]?[0-9])${daysuf}?)`;
const year = '[0-9]{1,4}';
const year2 = '[0-9]{2}';
const year4 = '[0-9]{4}';
const dayofyear = '(?:36[0-6]|3[0-5][0-9]|[12][0-9][0-9]|0[1-9][0-9]|00[1-9])';
const weekofyear = '(?:5[0-3]|[1-4][0-9]|0[1-9])';
const monthlz = '(?:0[0-9]|1[0-2])';
const daylz = '(?:0[0-9]|[12][0-9]|3[01])';

const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const dayname = words(...DAYS.map((d) => `${d}s`), ...DAYS, ...DAYS.map((d) => d.slice(0, 3)));
const daytext = words(
  ...DAYS.map((d) => `${d}s`),
  ...DAYS,
  ...DAYS.map((d) => d.slice(0, 3)),
  'weekday',
  'weekdays',
);
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september'];
const monthfull = words(...MONTHS, 'october', 'november', 'december');
const monthabbr = words(
  'jan',
  'feb',
  'mar',
  'apr',
  'may',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
);
const monthroman = '(?:XII|XI|IX|X|VIII|VII|VI|IV|V|III|II|I)';
const monthtext = `(?:${monthfull}|${monthabbr}|${monthroman})`;

const timetiny12 = `${hour12}${space}?${meridian}`;
const timeshort12 = `${hour12}[:.]${minutelz}${space}?${meridian}`;
const timelong12 = `${hour12}[:.]${minute}[:.]${secondlz}${space}?${meridian}`;
const timeshort24 = `[tT]?${hour24}[:.]${minute}`;
const timelong24 = `[tT]?${hour24}[:.]${minute}[:.]${second}`;
const iso8601normtz = `[tT]?${hour24}[:.]${minute}[:.]${secondlz}${space}?(?:${tzcorrection}|${tz})`;
const datenoyear = `${monthtext}[ .\\t-]*${day}(?:[,.stndrh\\t ]+|\\0)`;

const reltextnumber = words(
  ...['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eight', 'eighth'],
  ...['ninth', 'tenth', 'eleventh', 'twelfth'],
);
const reltexttext = words('next', 'last', 'previous', 'this');
const units = [
  'msec',
  'millisecond',
  'µsec',
  'microsecond',
  'usec',
  'sec',
  'second',
  'min',
  'minute',
  'hour',
];
const reltextunit = words(
  'ms',
  'µs',
  ...[...units, 'day', 'fortnight', 'forthnight', 'month', 'year'].flatMap((u) => [u, `${u}s`]),
  'weeks',
  ...DAYS.map((d) => `${d}s`),
  ...DAYS,
  ...DAYS.map((d) => d.slice(0, 3)),
  'weekday',
  'weekdays',
);

/** What a token is, which decides what its action reads from it (parse_date.re's rule actions). */
export type Rule =
  | 'yesterday'
  | 'now'
  | 'noon'
  | 'today'
  | 'tomorrow'
  | 'timestamp'
  | 'firstlastdayof'
  | 'backfrontof'
  | 'weekdayof'
  | 'time12'
  | 'mssqltime'
  | 'time24'
  | 'gnunocolon'
  | 'iso8601nocolon'
  | 'american'
  | 'iso8601date'
  | 'iso8601date2'
  | 'iso8601datex'
  | 'gnudateshorter'
  | 'gnudateshort'
  | 'datefull'
  | 'pointeddate4'
  | 'pointeddate2'
  | 'datenoday'
  | 'datenodayrev'
  | 'datetextual'
  | 'datenoyearrev'
  | 'datenocolon'
  | 'xmlrpc'
  | 'pgydotd'
  | 'isoweekday'
  | 'isoweek'
  | 'pgtextshort'
  | 'pgtextreverse'
  | 'clf'
  | 'year4'
  | 'ago'
  | 'daytext'
  | 'relativetextweek'
  | 'relativetext'
  | 'monthtext'
  | 'zone'
  | 'dateshortwithtime12'
  | 'dateshortwithtime'
  | 'relative'
  | 'skip'
  | 'any';

const RULES: ReadonlyArray<readonly [Rule, string]> = [
  ['yesterday', ci('yesterday')],
  ['now', ci('now')],
  ['noon', ci('noon')],
  ['today', words('midnight', 'today')],
  ['tomorrow', ci('tomorrow')],
  ['timestamp', '@-?[0-9]+(?:\\.[0-9]{0,6})?'],
  ['firstlastdayof', words('first day of', 'last day of')],
  ['backfrontof', `${words('back of ', 'front of ')}${hour24}(?:${space}?${meridian})?`],
  ['weekdayof', `(?:${reltextnumber}|${reltexttext})${space}${dayname}${space}${ci('of')}`],
  ['time12', `(?:${timelong12}|${timeshort12}|${timetiny12})`],
  ['mssqltime', `${hour12}:${minutelz}:${secondlz}[:.][0-9]+${meridian}`],
  [
    'time24',
    `(?:[tT]?${hour24}[:.]${minute}[:.]${second}${frac}|${timelong24}|${timeshort24}|[tT]${hour24})`,
  ],
  ['gnunocolon', `[tT]?${hour24lz}${minutelz}`],
  ['iso8601nocolon', `[tT]?${hour24lz}${minutelz}${secondlz}`],
  ['american', `${month}/${day}(?:/${year})?`],
  [
    'iso8601date',
    `(?:${year4}/${monthlz}/${daylz}/?|${year4}/${month}/${day}|[+-]?${year4}-${monthlz}-${daylz})`,
  ],
  ['iso8601date2', `${year2}-${monthlz}-${daylz}`],
  ['iso8601datex', `[+-][0-9]{5,19}-${monthlz}-${daylz}`],
  ['gnudateshorter', `${year4}-${month}`],
  ['gnudateshort', `${year}-${month}-${day}`],
  ['datefull', `${day}[ \\t.-]*${monthtext}[ \\t.-]*${year}`],
  ['pointeddate4', `${day}[.\\t-]${month}[.-]${year4}`],
  ['pointeddate2', `${day}[.\\t]${month}\\.${year2}`],
  ['datenoday', `${monthtext}[ .\\t-]*${year4}`],
  ['datenodayrev', `${year4}[ .\\t-]*${monthtext}`],
  ['datetextual', `(?:${monthtext}[ .\\t-]*${day}[,.stndrh\\t ]+${year}|${datenoyear})`],
  ['datenoyearrev', `${day}[ .\\t-]*${monthtext}`],
  ['datenocolon', `${year4}${monthlz}${daylz}`],
  [
    'xmlrpc',
    `(?:${year4}${monthlz}${daylz}T${hour24}:${minutelz}:${secondlz}|${year4}${monthlz}${daylz}[tT]${hour24}${minutelz}${secondlz}|${year4}-${monthlz}-${daylz}T${hour24lz}:${minutelz}:${secondlz}${frac}(?:${tzcorrection})?|${year4}-${month}-${day}T${hour24}:${minute}:${second}|${year4}:${monthlz}:${daylz} ${hour24lz}:${minutelz}:${secondlz})`,
  ],
  ['pgydotd', `${year4}[.-]?${dayofyear}`],
  ['isoweekday', `${year4}-?W${weekofyear}-?[0-7]`],
  ['isoweek', `${year4}-?W${weekofyear}`],
  ['pgtextshort', `${monthabbr}-${daylz}-${year}`],
  ['pgtextreverse', `${year}-${monthabbr}-${daylz}`],
  ['clf', `${day}/${monthabbr}/${year4}:${hour24lz}:${minutelz}:${secondlz}${space}${tzcorrection}`],
  ['year4', year4],
  ['ago', ci('ago')],
  ['daytext', daytext],
  ['relativetextweek', `${reltexttext}${space}${ci('week')}`],
  ['relativetext', `(?:${reltextnumber}|${reltexttext})${space}${reltextunit}`],
  ['monthtext', `(?:${monthfull}|${monthabbr})`],
  ['zone', `(?:${tzcorrection}|${tz})`],
  ['dateshortwithtime12', `${datenoyear}(?:${timelong12}|${timeshort12})`],
  ['dateshortwithtime', `${datenoyear}(?:${iso8601normtz}|${timelong24}|${timeshort24})`],
  ['relative', `[+-]*[ \\t]*[0-9]{1,13}${space}?(?:${reltextunit}|${ci('week')})`],
  ['skip', `(?:[.,]|${space}|\\0|\\n)`],
  ['any', '[^]'],
];

const COMPILED = RULES.map(([rule, pattern]) => [rule, new RegExp(pattern, 'y')] as const);

/**
 * The token at `at`: the longest match of any rule, the earlier rule on a tie, as re2c's scanner takes it.
 * Each rule's alternatives are ordered longest first, since a regular expression stops at the first that fits.
 */
export function nextToken(input: string, at: number): { rule: Rule; text: string } {
  let best: { rule: Rule; text: string } = { rule: 'any', text: input[at] };
  let bestLength = 0;
  for (const [rule, re] of COMPILED) {
    re.lastIndex = at;
    const match = re.exec(input);
    if (match && match[0].length > bestLength) {
      best = { rule, text: match[0] };
      bestLength = match[0].length;
    }
  }
  return best;
}
