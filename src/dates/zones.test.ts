// Wall clock → UTC on the days clocks change, compared with PHP itself: the write side's UTC copies (TEC §5).
import { beforeAll, describe, expect, it } from 'vitest';
import { ensurePhp, phpStrtotime } from '../../test/php/oracle.ts';
import { guard } from '../../test/slack.ts';
import { strtotime } from './strtotime.ts';
import { toUtc } from './zones.ts';

/** The days each zone's clocks go forward and back in 2027 (Lord Howe by 30 minutes, Chatham at 02:45/03:45). */
const CHANGES: ReadonlyArray<readonly [zone: string, days: string[]]> = [
  ['Europe/Madrid', ['2027-03-28', '2027-10-31']],
  ['America/New_York', ['2027-03-14', '2027-11-07']],
  ['Australia/Lord_Howe', ['2027-04-04', '2027-10-03']],
  ['Pacific/Chatham', ['2027-04-04', '2027-09-26']],
];

const seconds = (utcWall: string) => Date.parse(`${utcWall.replace(' ', 'T')}Z`) / 1000;

describe('toUtc compared with PHP', () => {
  beforeAll(ensurePhp, guard(600_000));

  const quarterHours = CHANGES.flatMap(([zone, days]) =>
    days.flatMap((day) =>
      Array.from({ length: 96 }, (_, q) => {
        const clock = `${String(Math.floor(q / 4)).padStart(2, '0')}:${String((q % 4) * 15).padStart(2, '0')}:00`;
        return [`${day} ${clock}`, zone] as const;
      }),
    ),
  );

  it('gives the instant PHP gives every quarter hour of a DST change day, gaps and repeated hours included', () => {
    const php = phpStrtotime(quarterHours.map(([wall, zone]) => [wall, 0, zone] as const));
    const differences = quarterHours.flatMap(([wall, zone], i) => {
      const ours = seconds(toUtc(wall, zone));
      return ours === php[i] ? [] : [`${wall} in ${zone}: PHP ${php[i]}, ours ${ours}`];
    });
    expect(differences).toEqual([]);
  });

  it('resolves those clocks as PHP does when the text names the zone itself (east of UTC it looks further back)', () => {
    const texts = quarterHours.map(([wall, zone]) => `${wall} ${zone}`);
    const php = phpStrtotime(texts.map((text) => [text, 0, 'UTC'] as const));
    const differences = texts.flatMap((text, i) => {
      const ours = strtotime(text, 0, 'UTC')?.seconds ?? false;
      return ours === php[i] ? [] : [`${text}: PHP ${php[i]}, ours ${ours}`];
    });
    expect(differences).toEqual([]);
  });
});
