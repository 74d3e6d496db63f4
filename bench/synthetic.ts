// Synthetic TEC event posts for index benchmarks: dates over 3 years, 30 categories, 100 tags, 500 venues,
// 300 organizers, ~500-character bodies with a skewed vocabulary (a few words in most events, many rare ones).
import { mulberry32 } from '../mocks/seed-data.ts';
import type { WpPost } from '../src/wp/types.ts';

/** The most common words, in most events' text. */
export const COMMON = [
  'music',
  'night',
  'family',
  'workshop',
  'live',
  'free',
  'festival',
  'open',
  'community',
  'talk',
];
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'shi', 'den', 'bar', 'qui', 'zel'];

/** 5 000 made-up words; word i is drawn with weight 1/(i+1) (Zipf), the common ones first. */
function vocabulary(rnd: () => number): { words: string[]; cdf: Float64Array } {
  const words = [...COMMON];
  while (words.length < 5000) {
    const n = 2 + Math.floor(rnd() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(rnd() * SYLLABLES.length)];
    words.push(`${w}${words.length}`);
  }
  const cdf = new Float64Array(words.length);
  let sum = 0;
  for (let i = 0; i < words.length; i++) cdf[i] = sum += 1 / (i + 1);
  for (let i = 0; i < words.length; i++) cdf[i] /= sum;
  return { words, cdf };
}

function pick(cdf: Float64Array, x: number): number {
  let lo = 0;
  let hi = cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cdf[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const pad = (n: number) => String(n).padStart(2, '0');
const wall = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/** The first day of the synthetic calendar; events spread over the 3 years from here. */
export const CALENDAR_START = Date.UTC(2025, 0, 1);
const SPAN = 3 * 365 * 86_400_000;

/** `n` event posts as wp/v2 returns them in the index crawl (`context=edit`, the index `_fields`). */
export function* syntheticPosts(n: number, seed = 1): Generator<WpPost> {
  const rnd = mulberry32(seed);
  const { words, cdf } = vocabulary(rnd);
  const text = (chars: number) => {
    let out = '';
    while (out.length < chars) out += `${words[pick(cdf, rnd())]}${rnd() < 0.1 ? '. ' : ' '}`;
    return out.trim();
  };
  for (let id = 1; id <= n; id++) {
    const start = CALENDAR_START + Math.floor((rnd() * SPAN) / 1_800_000) * 1_800_000;
    const end = start + (1 + Math.floor(rnd() * 6)) * 3_600_000;
    const modified = `${wall(CALENDAR_START - 86_400_000 + id * 1000).replace(' ', 'T')}`;
    const status = rnd() < 0.9 ? 'publish' : (['draft', 'future', 'private', 'pending'] as const)[id % 4];
    yield {
      id,
      date: modified,
      date_gmt: modified,
      modified,
      modified_gmt: modified,
      slug: `event-${id}`,
      status,
      type: 'tribe_events',
      link: '',
      author: 1 + (id % 5),
      password: rnd() < 0.02 ? 'secret' : '',
      menu_order: 0,
      parent: 0,
      title: { raw: text(40), rendered: '' },
      excerpt: { raw: rnd() < 0.3 ? text(80) : '', rendered: '' },
      content: { raw: `<p>${text(400)}</p>`, rendered: '' },
      tribe_events_cat: [1 + Math.floor(rnd() * 30)],
      tags: Array.from({ length: Math.floor(rnd() * 3) }, () => 100 + Math.floor(rnd() * 100)),
      meta: {
        _EventStartDate: wall(start),
        _EventEndDate: wall(end),
        _EventStartDateUTC: wall(start),
        _EventEndDateUTC: wall(end),
        _EventAllDay: '',
        _EventHideFromUpcoming: rnd() < 0.01 ? 'yes' : '',
        _tribe_featured: rnd() < 0.05 ? '1' : '',
        _EventVenueID: 1000 + Math.floor(rnd() * 500),
        _EventOrganizerID: [2000 + Math.floor(rnd() * 300)],
      },
    } as WpPost;
  }
}

/** A day of the synthetic calendar as the site's wall clock, `days` after its start. */
export function calendarDay(days: number): string {
  const d = new Date(CALENDAR_START + days * 86_400_000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} 00:00:00`;
}
