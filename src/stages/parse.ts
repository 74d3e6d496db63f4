// Stage: the arguments, checked by the route's contract, and the request context they put in a language.
import { invalidParams, missingParams } from '../http/errors.ts';
import { contextOf, type Exchange, type Stage } from '../http/exchange.ts';
import { type FormatChecks, type Parsed, parseArgs } from '../http/parse-args.ts';

/**
 * The request's arguments, parsed once whoever asks first: the cache stage keys and shares answers by them before
 * this stage runs, and the handler reads the same object (one parser per request). Call it once `raw` is complete
 * (after authenticate, which adds a write's body).
 */
export function parsedOf(x: Exchange, formats: FormatChecks): Parsed {
  x.parsed ??= parseArgs(x.binding.contract.args, x.raw, formats);
  return x.parsed;
}

/** Parses once for everything after it: a 400 naming each failing argument, or `x.args` and `x.ctx`. */
export const parse =
  (formats: FormatChecks): Stage =>
  async (x, next) => {
    const parsed = parsedOf(x, formats);
    if (!parsed.ok) {
      if ('missing' in parsed) throw missingParams(parsed.missing);
      throw invalidParams(Object.fromEntries(parsed.invalid.map((i) => [i.name, i.message])));
    }
    x.args = parsed.args;
    const language = (x.args as { multilang_language?: string }).multilang_language ?? x.rootLanguage;
    x.ctx = contextOf(x, language);
    await next();
  };
