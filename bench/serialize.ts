// Cost of building TEC records (the serializers every cache miss runs), for this tree and any other checkouts
// named on the command line, measured side by side in alternating rounds:
//   git worktree add ../before <commit> && node bench/serialize.ts ../before
// Prints the median microseconds per record of each kind and context, and each tree's ratio to the first.
import { resolve } from 'node:path';
import { median } from './lib.ts';

type Fn = () => unknown;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const PER_ROUND = Number(process.env.BENCH_RECORDS ?? 20000);

async function casesOf(root: string): Promise<Record<string, Fn>> {
  const { serializeEvent } = await import(`${root}/src/serialize/event.ts`);
  const { serializeOrganizer, serializeVenue } = await import(`${root}/src/serialize/linked.ts`);
  const f = await import(`${root}/src/serialize/test-fixtures.ts`);
  const venue = f.post(20, 'tribe_venue', {
    meta: {
      _VenueAddress: '1 Main St',
      _VenueCity: 'Toronto',
      _VenuePhone: '555',
      _VenueURL: 'https://h.test',
    },
  });
  const organizer = f.post(30, 'tribe_organizer', {
    meta: { _OrganizerPhone: '1', _OrganizerEmail: 'a@b.c' },
  });
  const event = f.post(10, 'tribe_events', {
    meta: {
      _EventStartDate: '2026-03-01 10:00:00',
      _EventEndDate: '2026-03-01 12:00:00',
      _EventTimezone: 'Europe/Madrid',
      _EventVenueID: 20,
      _EventOrganizerID: [30],
      _EventCost: ['20'],
    },
  });
  const related = {
    terms: new Map(),
    venues: new Map([[20, venue]]),
    organizers: new Map([[30, organizer]]),
    media: new Map(),
  };
  const list = f.opts(f.TEC_MAPPING);
  const single = f.opts(f.TEC_MAPPING, { context: 'single' });
  const locked = f.post(11, 'tribe_events', { ...event, id: 11, password: 'pw' });
  return {
    'event (list, with venue and organizer)': () => serializeEvent(event, related, list),
    'event (single, json_ld)': () => serializeEvent(event, related, single),
    'event (password-protected)': () => serializeEvent(locked, related, list),
    venue: () => serializeVenue(venue, related, list),
    organizer: () => serializeOrganizer(organizer, related, list),
  };
}

const microsPer = (fn: Fn): number => {
  const t = performance.now();
  for (let i = 0; i < PER_ROUND; i++) fn();
  return ((performance.now() - t) / PER_ROUND) * 1000;
};

const roots = [resolve('.'), ...process.argv.slice(2).map((p) => resolve(p))];
const trees = await Promise.all(roots.map(casesOf));
const names = Object.keys(trees[0]!);
const samples = trees.map(() => Object.fromEntries(names.map((n) => [n, [] as number[]])));
for (const tree of trees) for (const n of names) microsPer(tree[n]!); // warm-up
for (let r = 0; r < ROUNDS; r++) {
  for (const n of names) {
    for (let i = 0; i < trees.length; i++) samples[i]![n]!.push(microsPer(trees[i]![n]!));
  }
  process.stderr.write(`round ${r + 1}/${ROUNDS}\r`);
}
process.stderr.write('\n');
console.log(`µs per record, median of ${ROUNDS} rounds × ${PER_ROUND} (trees alternate within each round)`);
console.log(['record', ...roots.map((r, i) => (i === 0 ? 'this tree' : r))].join(' | '));
for (const n of names) {
  const m = samples.map((s) => median(s[n]!));
  const cells = m.map((v, i) =>
    i === 0 ? v.toFixed(1) : `${v.toFixed(1)} (this ÷ it ${(m[0]! / v).toFixed(3)})`,
  );
  console.log([n, ...cells].join(' | '));
}
