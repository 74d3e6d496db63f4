// The companion plugin's uploads sweep against a real WordPress: a gateway media create whose PHP dies after the file
// was moved into uploads (its row rolled back with its token) leaves no file behind once the sweep has run, and a
// finished upload keeps its file.
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';

const up = inject('upstream');
const admin = { Authorization: `Basic ${Buffer.from(up.auth).toString('base64')}` };
const dieMidCreate = new URL('php/die-mid-create.php', import.meta.url).pathname;
const sweepUploads = new URL('php/sweep-uploads.php', import.meta.url).pathname;
const WRITE_META = '_calendar_gateway_write';
const tok = `upl${Math.random().toString(36).slice(2, 10)}`;
const uploads = join(up.siteDir, 'wp-content/uploads');

/** The files under uploads whose name starts with `stem`, relative to it. */
function filesOf(stem: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.startsWith(stem)) out.push(path.slice(uploads.length + 1));
    }
  };
  walk(uploads);
  return out.sort();
}

const sweep = async (age: number): Promise<string[]> =>
  JSON.parse((await promisify(execFile)('php', [sweepUploads, up.siteDir, String(age)])).stdout) as string[];

const left: number[] = [];
afterAll(async () => {
  for (const id of left)
    await fetch(`${up.url}/wp/v2/media/${id}?force=true`, { method: 'DELETE', headers: admin });
});

describe('a gateway media create that dies after WordPress moved its file', () => {
  it('leaves no file behind once the uploads sweep has run, and only once its note is old enough', async () => {
    const title = `${tok}died`;
    const run = await promisify(execFile)('php', [
      dieMidCreate,
      up.siteDir,
      'media',
      title,
      `${tok}-died`,
    ]).then(
      () => ({ signal: null, stderr: 'exited' }),
      (err: { signal?: string; stderr?: string }) => ({ signal: err.signal, stderr: err.stderr }),
    );
    expect(run, run.stderr).toMatchObject({ signal: 'SIGKILL' });
    // The row rolled back with its token; the file stayed (what this sweep is for).
    const stayed = filesOf(title);
    expect(stayed).toHaveLength(1);
    // A note younger than the age is a create that may still be running: left alone.
    expect(await sweep(3600)).not.toContain(stayed[0]);
    expect(filesOf(title)).toEqual(stayed);
    expect(await sweep(0)).toContain(stayed[0]);
    expect(filesOf(title)).toEqual([]);
  });

  it('keeps the file of a gateway upload that finished', async () => {
    const title = `${tok}kept`;
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const res = await fetch(`${up.url}/wp/v2/media?meta[${WRITE_META}]=${tok}-kept`, {
      method: 'POST',
      headers: {
        ...admin,
        'Content-Type': 'image/png',
        'Content-Disposition': `attachment; filename="${title}.png"`,
      },
      body: png,
    });
    const body = (await res.json()) as { id: number; media_details?: { file?: string } };
    expect(res.status, JSON.stringify(body)).toBe(201);
    left.push(body.id);
    const files = filesOf(title);
    expect(files).toContain(body.media_details?.file);
    expect(await sweep(0)).toEqual(expect.not.arrayContaining(files));
    expect(filesOf(title)).toEqual(files);
  });
});
