// TEC's cost formatting (`tribe_get_cost( $id, true )`) and `cost_details`, from the stored cost rows.
import { escHtml } from './common.ts';

export interface Currency {
  symbol: string;
  code: string;
  position: string;
}

export interface CostDetails {
  currency_symbol: string;
  currency_code: string;
  currency_position: string;
  values: string[];
}

/** TEC's `defaultCurrencySymbol` option default, used when the event stores no symbol. */
export const DEFAULT_CURRENCY_SYMBOL = '$';
/** TEC's translated "Free" (en_US). */
export const FREE = 'Free';
/** TEC's cost range separator (`_x( ' – ', 'Cost range separator' )`): an en dash with spaces. */
export const RANGE_SEPARATOR = ' – ';

// TC `Cost_Utils::get_cost_regex()`: optional separator, digits, optional separator, digits. "10,25" is ONE
// value (European decimals) while "10 - 25" and "10, 25" are two.
const COST_REGEX = /[,.]?(\d+)[,.]?(\d*)/g;

/** PHP's `is_numeric` for strings. */
export const isNumeric = (s: string): boolean => /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(s);

interface Parsed {
  /** Sort key: the value scaled by 10^decimals (TEC's "well balanced index"), or a slug for text costs. */
  key: number | string;
  value: string;
}

/** TC `parse_cost_range`: the price strings inside one or more cost strings, keyed and sorted by amount. */
export function parseCostRange(costs: string[]): Parsed[] {
  let decimals = 0;
  const pieces: string[] = [];
  for (const cost of costs) {
    const matches = [...cost.matchAll(COST_REGEX)];
    if (matches.length === 0) {
      pieces.push(cost);
      continue;
    }
    for (const m of matches) {
      pieces.push(m[0]);
      decimals = Math.max(decimals, m[2].length);
    }
  }
  const byKey = new Map<number | string, string>();
  for (const piece of pieces) {
    const numeric = piece.replace(/[,.]/g, '.');
    const key = isNumeric(numeric)
      ? Math.round(Number(numeric) * 10 ** decimals)
      : numeric
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/^-|-$/g, '');
    byKey.set(key, piece); // later duplicates win, as PHP array assignment does
  }
  return [...byKey].map(([key, value]) => ({ key, value })).sort(compareKeys);
}

// PHP 8 ksort: numbers before non-numeric strings, numbers numerically, strings bytewise.
function compareKeys(a: Parsed, b: Parsed): number {
  if (typeof a.key === 'number' && typeof b.key === 'number') return a.key - b.key;
  if (typeof a.key === 'number') return -1;
  if (typeof b.key === 'number') return 1;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** TEC `get_event_costs`: each non-empty row parsed on its own; the first row to claim an amount keeps it. */
function eventCosts(rows: string[]): Parsed[] {
  const out = new Map<number | string, Parsed>();
  for (const row of rows) {
    if (row === '') continue;
    for (const p of parseCostRange([row])) if (!out.has(p.key)) out.set(p.key, p);
  }
  return [...out.values()];
}

/** TC `get_cost_by_func`: a lone text cost is kept; otherwise the min/max numeric one; nothing numeric → 0. */
function costBy(costs: Parsed[], fn: 'min' | 'max'): string {
  const parsed = parseCostRange(costs.map((c) => c.value));
  if (parsed.length === 1 && !isNumeric(parsed[0].value)) return parsed[0].value;
  const numeric = parsed.filter((p) => isNumeric(p.value) && typeof p.key === 'number');
  if (numeric.length === 0) return '0';
  const pick = fn === 'min' ? numeric[0] : numeric[numeric.length - 1];
  return pick.value === '' || pick.value === '0' ? '0' : pick.value;
}

function withFreeAndCurrency(cost: string, currency: Currency): string {
  const period = cost.replace(/[,.]/g, '.');
  if (isNumeric(period) && Number(period).toFixed(2) === '0.00') return FREE;
  if (!isNumeric(cost.replace(/[,.]/g, ''))) return cost;
  const symbol = currency.symbol || DEFAULT_CURRENCY_SYMBOL;
  // tribe_format_currency: anything other than an explicit `prefix` (`postfix`, `suffix`) goes after.
  const after = currency.position !== '' && currency.position !== 'prefix';
  return after ? cost + symbol : symbol + cost;
}

type Formatted = { cost: string; cost_details: CostDetails };

/**
 * Costs already formatted, by stored rows and currency. A calendar holds few distinct costs ("10", "Free", "5 - 20")
 * and every miss of a list formats each of its events' again: about 6 µs an event, parsed three times over. Bounded:
 * emptied when full.
 */
const formatted = new Map<string, Formatted>();
const FORMATTED_MAX = 2000;

/** `cost` and `cost_details` of an event from its stored cost rows (`_EventCost`, one row per value). Pure. */
export function formatCost(values: string[], currency: Currency): Formatted {
  const key = JSON.stringify([currency.symbol, currency.code, currency.position, ...values.map(String)]);
  let out = formatted.get(key);
  if (!out) {
    out = formatCostOnce(values, currency);
    if (formatted.size >= FORMATTED_MAX) formatted.clear();
    formatted.set(key, out);
  }
  // A copy: the record it goes into is the caller's to change.
  return { cost: out.cost, cost_details: { ...out.cost_details, values: [...out.cost_details.values] } };
}

/** `formatCost` worked out, not looked up. */
export function formatCostOnce(values: string[], currency: Currency): Formatted {
  const costs = eventCosts(values.map(String));
  let cost = '';
  if (costs.length > 0) {
    const min = escHtml(withFreeAndCurrency(costBy(costs, 'min'), currency));
    const max = escHtml(withFreeAndCurrency(costBy(costs, 'max'), currency));
    cost = min === max ? min : min + RANGE_SEPARATOR + max;
  }
  // REST `get_cost_values`: normalised numeric strings, or the sort key for text costs; ascending.
  const list = costs
    .map((c) => {
      const normalised = c.value.replace(/[,.]/g, '.');
      return isNumeric(normalised) ? normalised : String(c.key);
    })
    .sort((a, b) => (isNumeric(a) ? Number(a) : 0) - (isNumeric(b) ? Number(b) : 0));
  return {
    cost,
    cost_details: {
      currency_symbol: currency.symbol,
      currency_code: currency.code,
      currency_position: currency.position,
      values: list,
    },
  };
}

const PREFIXED = /^\s*([^\d\s.,-]+)\s*(\d[\d.,]*)\s*$/u;
const POSTFIXED = /^\s*(\d[\d.,]*)\s*([^\d\s.,-]+)\s*$/u;

/**
 * A cost sent with its currency (`"$20"`, `"20$"`, `["0€", "20€"]`): the amounts without it, and the symbol and
 * position TEC stores beside them (`_EventCurrencySymbol`, `_EventCurrencyPosition`). Null when no value carries a
 * symbol. Pure.
 */
export function splitCurrency(
  costs: string[],
): { values: string[]; symbol: string; position: string } | null {
  let found: { symbol: string; position: string } | null = null;
  const values = costs.map((c) => {
    const pre = PREFIXED.exec(c);
    if (pre) {
      found ??= { symbol: pre[1], position: 'prefix' };
      return pre[2];
    }
    const post = POSTFIXED.exec(c);
    if (post) {
      found ??= { symbol: post[2], position: 'postfix' };
      return post[1];
    }
    return c;
  });
  return found ? { values, ...(found as { symbol: string; position: string }) } : null;
}
