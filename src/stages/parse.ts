// Stage: the arguments, checked by the route's contract, and the request context they put in a language.
import { invalidParams, missingParams } from '../http/errors.ts';
import { contextOf, type Stage } from '../http/exchange.ts';
import { type FormatChecks, parseArgs } from '../http/parse-args.ts';

/** Parses once for everything after it: a 400 naming each failing argument, or `x.args` and `x.ctx`. */
export const parse =
  (formats: FormatChecks): Stage =>
  async (x, next) => {
    const parsed = parseArgs(x.binding.contract.args, x.raw, formats);
    if (!parsed.ok) {
      if ('missing' in parsed) throw missingParams(parsed.missing);
      throw invalidParams(Object.fromEntries(parsed.invalid.map((i) => [i.name, i.message])));
    }
    x.args = parsed.args as Record<string, unknown>;
    const language = (x.args as { multilang_language?: string }).multilang_language ?? x.rootLanguage;
    x.ctx = contextOf(x, language);
    await next();
  };
