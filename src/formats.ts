// The checks behind the contract's named formats (`time`, `timezone`, `image`), given to the one argument parser.

import { normaliseTimezone } from './dates/index.ts';
import { isTime } from './dates/parse.ts';
import type { FormatChecks } from './http/parse-args.ts';
import { isImageArg } from './media/sideload.ts';

export const FORMATS: FormatChecks = {
  time: (v) => isTime(v, new Date()),
  timezone: (v) => v === '' || normaliseTimezone(v) !== null,
  image: isImageArg,
};
