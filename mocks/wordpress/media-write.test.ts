// The mock's media uploads and deletes answer as WordPress 6.1's attachments controller does.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { png } from '../../test/support/image-server.ts';
import { PASSWORD, ROOT, startSeeded } from './test-support.ts';

const wp = startSeeded('tec');
afterAll(() => wp.close());
beforeEach(() => wp.mock.reset());

const auth = (login: string) => `Basic ${Buffer.from(`${login}:${PASSWORD}`).toString('base64')}`;

async function upload(as: string | null, body: Uint8Array, headers: Record<string, string>) {
  const res = await fetch(`${ROOT}/wp/v2/media`, {
    method: 'POST',
    headers: { ...(as ? { Authorization: auth(as) } : {}), ...headers },
    body: new Uint8Array(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary WordPress JSON and assert on its shape.
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

const pngHeaders = (name = 'photo.png') => ({
  'Content-Type': 'image/png',
  'Content-Disposition': `attachment; filename="${name}"`,
});

describe('POST /wp/v2/media', () => {
  it('stores the file as an attachment with its real size, and numbers a second file of the same name', async () => {
    const first = await upload('editor', png(4, 3), pngHeaders());
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      type: 'attachment',
      status: 'inherit',
      mime_type: 'image/png',
      title: { raw: 'photo', rendered: 'photo' },
      media_details: { width: 4, height: 3, filesize: png(4, 3).length, sizes: {} },
    });
    expect(first.body.source_url).toMatch(/\/wp-content\/uploads\/\d{4}\/\d{2}\/photo\.png$/);
    const second = await upload('editor', png(4, 3), pngHeaders());
    expect(second.body.source_url).toMatch(/\/photo-1\.png$/);
  });

  it.each([
    ['contributor', 403],
    [null, 401],
  ])('refuses %s, who may not upload files, with rest_cannot_create %i', async (as, status) => {
    const res = await upload(as, png(2, 2), pngHeaders());
    expect(res.status).toBe(status);
    expect(res.body.code).toBe('rest_cannot_create');
  });

  it.each([
    ['no body', new Uint8Array(), pngHeaders(), 400, 'rest_upload_no_data'],
    ['no disposition', png(2, 2), { 'Content-Type': 'image/png' }, 400, 'rest_upload_no_content_disposition'],
    [
      'a bad disposition',
      png(2, 2),
      { ...pngHeaders(), 'Content-Disposition': 'inline' },
      400,
      'rest_upload_invalid_disposition',
    ],
    ['text named .png', new TextEncoder().encode('text'), pngHeaders(), 500, 'rest_upload_sideload_error'],
    ['a PNG named .exe', png(2, 2), pngHeaders('tool.exe'), 500, 'rest_upload_sideload_error'],
    ['a PNG named .jpg', png(2, 2), pngHeaders('photo.jpg'), 500, 'rest_upload_sideload_error'],
  ])('refuses %s', async (_what, body, headers, status, code) => {
    const res = await upload('editor', body, headers);
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
  });
});

describe('DELETE /wp/v2/media/{id}', () => {
  it('needs force=true, since attachments cannot be trashed, then deletes', async () => {
    const { body } = await upload('author', png(2, 2), pngHeaders());
    const del = (query: string, as = 'author') =>
      fetch(`${ROOT}/wp/v2/media/${body.id}${query}`, {
        method: 'DELETE',
        headers: { Authorization: auth(as) },
      });
    const trash = await del('');
    expect(trash.status).toBe(501);
    expect(((await trash.json()) as { code: string }).code).toBe('rest_trash_not_supported');
    expect((await del('?force=true', 'contributor')).status).toBe(403);
    const gone = await del('?force=true');
    expect(gone.status).toBe(200);
    expect(await gone.json()).toMatchObject({ deleted: true, previous: { id: body.id } });
    expect((await fetch(`${ROOT}/wp/v2/media/${body.id}`)).status).toBe(404);
  });
});
