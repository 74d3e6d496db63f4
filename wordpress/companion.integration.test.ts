// The companion plugin's write provenance against a real WordPress: a create that dies mid-way (PHP SIGKILLed right
// after its row is inserted) leaves no record without its write token, so the gateway's undo can always find what a
// failed write made. Seen in CI: a burst organizer left behind after `php -S` was killed mid-write.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';

const up = inject('upstream');
const admin = { Authorization: `Basic ${Buffer.from(up.auth).toString('base64')}` };
const script = new URL('php/die-mid-create.php', import.meta.url).pathname;
const WRITE_META = '_calendar_gateway_write';
const tok = `diemid${Math.random().toString(36).slice(2, 10)}`;

type Row = { id: number; meta?: Record<string, unknown> };

/** Every record of `restBase` whose title or name holds `needle`, in any status, with its meta. */
async function find(restBase: string, needle: string, terms: boolean): Promise<Row[]> {
  const scope = terms ? 'hide_empty=false' : restBase === 'media' ? '' : 'status=any';
  const res = await fetch(`${up.url}/wp/v2/${restBase}?search=${needle}&context=edit&per_page=100&${scope}`, {
    headers: admin,
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Row[];
}

const left: Array<[string, number]> = [];
afterAll(async () => {
  for (const [restBase, id] of left)
    await fetch(`${up.url}/wp/v2/${restBase}/${id}?force=true`, { method: 'DELETE', headers: admin });
});

describe('a gateway create that dies right after WordPress inserts its row', () => {
  const cases: Array<[string, boolean]> = [
    ['tribe_organizer', false],
    ['tribe_venue', false],
    ['tribe_events', false],
    ['media', false],
    ['tags', true],
    ['tribe_events_cat', true],
  ];
  it.each(cases)('leaves no %s behind, with or without its token', async (restBase, terms) => {
    const title = `${tok}${restBase.replace(/_/g, '')}`;
    const token = `${tok}-${restBase}`;
    const run = await promisify(execFile)('php', [script, up.siteDir, restBase, title, token]).then(
      () => ({ signal: null, stderr: 'exited' }),
      (err: { signal?: string; stderr?: string }) => ({ signal: err.signal, stderr: err.stderr }),
    );
    // It died where it was meant to: after the insert, before the create finished.
    expect(run, run.stderr).toMatchObject({ signal: 'SIGKILL' });
    const rows = await find(restBase, title, terms);
    for (const r of rows) left.push([restBase, r.id]);
    // Before the companion wrapped a create in a transaction, the row stayed without its token: nothing could
    // tell it from an editor's record, and a failed gateway write left it behind.
    expect(rows.map((r) => ({ id: r.id, token: r.meta?.[WRITE_META] ?? null }))).toEqual([]);
  });
});

describe('gateway creates of one new term name at once', () => {
  it.each(['tags', 'tribe_events_cat'])(
    'make one %s, which every creator is given, and which no failed write of theirs may remove',
    async (restBase) => {
      const name = `${tok} same ${restBase}`;
      const answers = await Promise.all(
        Array.from({ length: 8 }, async (_, i) => {
          const res = await fetch(`${up.url}/wp/v2/${restBase}`, {
            method: 'POST',
            headers: { ...admin, 'Content-Type': 'application/json' },
            body: JSON.stringify({ name, meta: { [WRITE_META]: `${tok}-same-${i}` } }),
          });
          const body = (await res.json()) as { id?: number; code?: string; data?: { term_id?: number } };
          return { status: res.status, id: body.id ?? body.data?.term_id, code: body.code };
        }),
      );
      const rows = await find(restBase, encodeURIComponent(name), true);
      for (const r of rows) left.push([restBase, r.id]);
      // One term: WordPress's own guard (folding a newer duplicate into the older) cannot see a term still inside
      // its create's transaction, so creates take turns and the later ones are told term_exists.
      expect(rows.map((r) => r.id)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
      for (const a of answers) {
        expect([201, 400]).toContain(a.status);
        if (a.status === 400) expect(a.code).toBe('term_exists');
        expect(a.id).toBe(rows[0]!.id);
      }
      // Given to eight creators, it carries none's token: a failed write of its first creator leaves it.
      expect(rows[0]!.meta?.[WRITE_META] ?? '').toBe('');
    },
  );
});
