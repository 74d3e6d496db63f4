import { describe, expect, it, vi } from 'vitest';
import type { RequestContext } from '../context.ts';
import type { Deps } from '../deps.ts';
import { ApiError } from '../http/errors.ts';
import type { Caller } from '../wp/caller.ts';
import { Undo, UndoJournal } from '../write/undo.ts';
import { isImageArg, resolveImage } from './sideload.ts';

const ctx = {
  credentials: undefined,
  signal: new AbortController().signal,
  language: 'en',
} as unknown as RequestContext;
const uploader: Caller = { id: 2, roles: ['editor'], caps: { upload_files: true } };
const writer: Caller = { id: 4, roles: ['contributor'], caps: { edit_posts: true } };

function deps(withImage = true) {
  const fetch = vi.fn();
  const request = vi.fn();
  const list = vi.fn(async () => ({ items: [], total: 0, totalPages: 0 }));
  const d = {
    mapping: { event: { fields: withImage ? { image: { post: 'featured_media' } } : {} } },
    images: { fetch },
    site: { mediaSourceMeta: true },
    wp: { request, list },
  } as unknown as Deps;
  return { d, fetch, request };
}
const undo = (): Undo => new Undo();
const refusal = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
};

describe('resolveImage', () => {
  it('keeps an empty image as 0 (remove it) without any call', async () => {
    const { d, fetch, request } = deps();
    expect(await resolveImage(d, ctx, writer, 'event', '', undo())).toBe(0);
    expect(fetch).not.toHaveBeenCalled();
    expect(request).not.toHaveBeenCalled();
  });

  it('keeps an id that is an image attachment, and refuses any other id, as TEC does', async () => {
    const { d, request } = deps();
    request.mockResolvedValueOnce({
      status: 200,
      body: { id: 42, media_type: 'image' },
      headers: new Headers(),
    });
    expect(await resolveImage(d, ctx, writer, 'event', '42', undo())).toBe(42);
    expect(request).toHaveBeenCalledWith(expect.objectContaining({ path: '/wp/v2/media/42' }));
    request.mockResolvedValueOnce({
      status: 200,
      body: { id: 43, media_type: 'file' },
      headers: new Headers(),
    });
    expect((await refusal(resolveImage(d, ctx, writer, 'event', '43', undo()))).code).toBe(
      'rest_invalid_param',
    );
    request.mockRejectedValueOnce(new ApiError('rest_post_invalid_id', 'Invalid post ID.', 404));
    expect((await refusal(resolveImage(d, ctx, writer, 'event', '44', undo()))).code).toBe(
      'rest_invalid_param',
    );
  });

  it('refuses a URL from a user who may not upload files, before fetching it', async () => {
    const { d, fetch } = deps();
    const err = await refusal(resolveImage(d, ctx, writer, 'event', 'https://img.test/a.png', undo()));
    expect(err.code).toBe('rest_invalid_param');
    expect(err.data.params).toEqual({ image: expect.stringMatching(/^image was refused: .*upload files/) });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('uploads nothing when the mapping stores no image for the kind', async () => {
    const { d, fetch, request } = deps(false);
    expect(await resolveImage(d, ctx, uploader, 'event', 'https://img.test/a.png', undo())).toBeUndefined();
    expect(fetch).not.toHaveBeenCalled();
    expect(request).not.toHaveBeenCalled();
  });

  it("uploads the fetched bytes with their type and name, the source URL and the write's token in the same request, and records the upload for a rollback", async () => {
    const { d, fetch, request } = deps();
    fetch.mockResolvedValue({ bytes: Buffer.from('png'), type: 'image/png', filename: 'a.png' });
    request.mockResolvedValue({ status: 201, body: { id: 77 }, headers: new Headers() });
    const u = undo();
    expect(await resolveImage(d, ctx, uploader, 'event', 'https://img.test/a.png', u)).toBe(77);
    expect(request).toHaveBeenCalledWith(
      expect.objectContaining({
        path: '/wp/v2/media',
        method: 'POST',
        query: {
          'meta[_tribe_importer_original_url]': 'https://img.test/a.png',
          'meta[_calendar_gateway_write]': u.token,
        },
        headers: { 'Content-Type': 'image/png', 'Content-Disposition': 'attachment; filename="a.png"' },
      }),
    );
    expect(u.posts).toEqual([{ restBase: 'media', id: 77 }]);
  });

  it("does not reuse an upload whose create answer another write lost: that write's rollback will remove it", async () => {
    for (const lostBy of ['another write', 'nobody'] as const) {
      const { d, fetch, request } = deps();
      const journal = new UndoJournal();
      (d as { undo?: UndoJournal }).undo = journal;
      // Write A's upload: sent, its answer lost, so A holds a probe of `media` and will look for it by its token.
      const a = journal.begin();
      const lost = () => Promise.reject(new ApiError('request_aborted', 'The request was aborted.', 499));
      if (lostBy === 'another write') await expect(a.create('posts', 'media', lost)).rejects.toThrow();
      const url = 'https://img.test/lost.png';
      (d.wp.list as ReturnType<typeof vi.fn>).mockResolvedValue({
        items: [{ id: 90, source_url: url }],
        total: 1,
        totalPages: 1,
      });
      fetch.mockResolvedValue({ bytes: Buffer.from('png'), type: 'image/png', filename: 'lost.png' });
      request.mockImplementation(async (req: { path: string; method?: string }) =>
        req.method === 'POST'
          ? { status: 201, body: { id: 91 }, headers: new Headers() }
          : {
              status: 200,
              body: { id: 90, meta: { _calendar_gateway_write: a.token } },
              headers: new Headers(),
            },
      );
      const got = await resolveImage(d, ctx, uploader, 'event', url, journal.begin());
      // Reused only when no other write is looking for a lost upload that carries the found one's token.
      expect(got).toBe(lostBy === 'another write' ? 91 : 90);
    }
  });

  it('passes an unreachable WordPress on as it is, not as a bad argument', async () => {
    const { d, fetch, request } = deps();
    fetch.mockResolvedValue({ bytes: Buffer.from('png'), type: 'image/png', filename: 'a.png' });
    request.mockRejectedValue(new ApiError('upstream_unavailable', 'WordPress cannot be reached.', 503));
    const err = await refusal(resolveImage(d, ctx, uploader, 'event', 'https://img.test/a.png', undo()));
    expect(err.status).toBe(503);
  });
});

describe('isImageArg', () => {
  it.each([
    ['', true],
    ['12', true],
    ['https://a.test/x.png', true],
    ['picture', false],
    ['-1', false],
    ['ftp://a.test/x.png', false],
  ])('%j → %s', (value, ok) => {
    expect(isImageArg(value)).toBe(ok);
  });
});
