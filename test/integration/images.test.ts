// Image URLs on writes (TEC's sideloading): uploaded with the caller's rights, refused with a reason, never left behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, openTarget, type Role, type Target } from '../harness.ts';
import { type ImageServer, png, startImageServer } from '../support/image-server.ts';
import { NS, peer } from './cache-support.ts';
import { type EventRecord, expectError, Fixtures, type Json, monthOf, token } from './fixtures.ts';

const tok = token();
const day = monthOf(2032, 3);
let t: Target;
let fx: Fixtures;
let srv: ImageServer;
const venues: number[] = [];
const organizers: number[] = [];

beforeAll(async () => {
  [t, srv] = await Promise.all([openTarget(), startImageServer()]);
  fx = new Fixtures(t);
});

afterAll(async () => {
  await fx?.cleanup();
  for (const id of venues) await upstream('DELETE', `/${t.mapping.venue.restBase}/${id}?force=true`);
  for (const id of organizers) await upstream('DELETE', `/${t.mapping.organizer.restBase}/${id}?force=true`);
  for (const m of await uploaded('')) await upstream('DELETE', `/media/${m.id}?force=true`);
  await Promise.all([t?.close(), srv?.close()]);
});

async function upstream(method: string, path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${t.upstream}/wp/v2${path}`, { method, headers: { Authorization: t.auth.admin } });
  return { status: res.status, body: await res.json() };
}

/** The attachments of this file whose name starts with `tok` + `name`, as WordPress lists them. */
async function uploaded(name: string): Promise<Array<{ id: number; source_url: string }>> {
  const res = await upstream('GET', `/media?search=${tok}${name}&per_page=100&_fields=id,source_url`);
  return res.body as Array<{ id: number; source_url: string }>;
}

const imageUrl = (w: number, h: number, name: string) => `${srv.url}/img/${w}x${h}/${tok}${name}.png`;

const event = (title: string, d: number, extra: Json = {}): Json => ({
  title: `${title} ${tok}`,
  start_date: day(d),
  end_date: day(d, '12:00:00'),
  ...extra,
});

async function create(body: Json, as: Role = 'editor') {
  const res = await call<EventRecord>(t, 'POST', '/events', { as, body });
  if (res.status === 201) fx.ids.push(res.body.id);
  return res;
}

describe('image URLs on event writes', () => {
  it('uploads the image for an editor and shows it as TEC image object, on create and on read', async () => {
    const res = await create(event('Poster', 1, { image: imageUrl(3, 2, 'poster') }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const image = res.body.image as Json;
    const [stored] = await uploaded('poster');
    expect(image).toMatchObject({
      id: stored?.id,
      url: stored?.source_url,
      extension: 'png',
      width: 3,
      height: 2,
    });
    expect(image.url).toMatch(new RegExp(`/wp-content/uploads/\\d{4}/\\d{2}/${tok}poster\\.png$`));
    expect(image.filesize).toBe(png(3, 2).length);
    // An image that fits in a thumbnail gets no sizes, and TEC drops the empty list.
    expect(image).not.toHaveProperty('sizes');
    expect((await call<EventRecord>(t, 'GET', `/events/${res.body.id}`)).body.image).toEqual(image);
  });

  it("lists WordPress's default sizes of a photo-sized image as TEC does, each made only when smaller", async () => {
    const res = await create(event('Photo', 2, { image: imageUrl(1600, 1200, 'photo') }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const image = res.body.image as Json;
    expect(image).toMatchObject({ width: 1600, height: 1200, extension: 'png' });
    const sizes = image.sizes as Record<string, Json>;
    // medium and large fit in their boxes, thumbnail is cropped, medium_large is 768 wide; no 2048 of a 1600 image.
    const dims = Object.fromEntries(Object.entries(sizes).map(([k, v]) => [k, [v.width, v.height]]));
    expect(dims).toEqual({
      medium: [300, 225],
      large: [1024, 768],
      thumbnail: [150, 150],
      medium_large: [768, 576],
      '1536x1536': [1536, 1152],
    });
    for (const [name, size] of Object.entries(sizes)) {
      expect(Object.keys(size).slice(0, 3), name).toEqual(['width', 'height', 'mime-type']);
      expect(size['mime-type'], name).toBe('image/png');
      expect(size.url, name).toMatch(new RegExp(`/${tok}photo-${size.width}x${size.height}\\.png$`));
    }
    expect((await call<EventRecord>(t, 'GET', `/events/${res.body.id}`)).body.image).toEqual(image);
  });

  it('reuses the attachment when the URL is that of an image already in the media library', async () => {
    const first = await create(event('Round trip', 8, { image: imageUrl(3, 3, 'roundtrip') }));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const image = first.body.image as Json;
    srv.seen.length = 0;
    // A client that reads an event and writes its image back sends the attachment's own URL.
    const second = await create(event('Round trip two', 9, { image: image.url }));
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect((second.body.image as Json).id).toBe(image.id);
    expect(srv.seen).toEqual([]);
    expect(await uploaded('roundtrip')).toHaveLength(1);
  });

  it('reuses the attachment it uploaded before when the same image URL comes again', async () => {
    const url = imageUrl(4, 2, 'again');
    const first = await create(event('Again', 10, { image: url }));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    srv.seen.length = 0;
    const second = await create(event('Again two', 11, { image: url }));
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect((second.body.image as Json).id).toBe((first.body.image as Json).id);
    expect(srv.seen).toEqual([]);
    expect(await uploaded('again')).toHaveLength(1);
  });

  it('replaces the image on update, and an empty image removes it', async () => {
    const created = await create(event('Replace', 2, { image: imageUrl(4, 4, 'first') }));
    expect(created.status).toBe(201);
    const first = (created.body.image as Json).id;
    const updated = await call<EventRecord>(t, 'POST', `/events/${created.body.id}`, {
      as: 'editor',
      body: { image: imageUrl(6, 5, 'second') },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.image).toMatchObject({ width: 6, height: 5 });
    expect((updated.body.image as Json).id).not.toBe(first);
    const removed = await call<EventRecord>(t, 'POST', `/events/${created.body.id}`, {
      as: 'editor',
      body: { image: '' },
    });
    expect(removed.body.image).toBe(false);
  });

  it('refuses an image id that is not an image attachment, and creates nothing', async () => {
    const other = await create(event('Not an image', 13));
    expect(other.status).toBe(201);
    for (const image of [String(other.body.id), '99999999']) {
      const title = `Bad image ${image} ${tok}`;
      const res = await create({ ...event('x', 14), title, image });
      expectError(res, 400, 'rest_invalid_param');
      expect((res.body.data as Json).params).toEqual({
        image: expect.stringMatching(/^image was refused: /),
      });
      const found = await call<Json>(
        t,
        'GET',
        `/events?search=${encodeURIComponent(title)}&status=draft,publish`,
        {
          as: 'admin',
        },
      );
      expect(found.body.events).toEqual([]);
    }
  });

  it('refuses, with the default configuration, an image URL on a loopback address and fetches nothing', async () => {
    const guarded = await peer(t); // configured as a deployment is: IMAGE_ALLOW_PRIVATE_HOSTS unset
    try {
      srv.seen.length = 0;
      const res = await call<EventRecord>({ ...t, api: `${guarded.url}${NS}` }, 'POST', '/events', {
        as: 'editor',
        body: event('Guarded', 12, { image: imageUrl(2, 2, 'guarded') }),
      });
      expectError(res, 400, 'rest_invalid_param');
      expect(String(((res.body.data as Json).details as Json).image)).toMatch(/private or reserved/);
      expect(srv.seen).toEqual([]);
      expect(await uploaded('guarded')).toEqual([]);
    } finally {
      await guarded.close();
    }
  });

  it("refuses an image URL by a name that does not resolve or resolves privately in the same words, naming no resolver's answer", async () => {
    const guarded = await peer(t); // IMAGE_ALLOW_PRIVATE_HOSTS unset: names that resolve to loopback are refused
    try {
      const refusals: string[] = [];
      for (const [name, url] of [
        ['unknown', `http://intranet-${tok.toLowerCase()}.calendar-gateway.invalid/poster.png`],
        ['loopback', imageUrl(2, 2, 'byname').replace('127.0.0.1', 'localhost')],
      ] as const) {
        const res = await call<Json>({ ...t, api: `${guarded.url}${NS}` }, 'POST', '/events', {
          as: 'editor',
          body: event(`Resolver ${name}`, 13, { image: url }),
        });
        expectError(res, 400, 'rest_invalid_param');
        const text = JSON.stringify(res.body);
        expect(text).not.toMatch(
          /ENOTFOUND|EAI_AGAIN|getaddrinfo|ECONNREFUSED|127\.0\.0\.1|::1|private|calendar-gateway\.invalid/,
        );
        refusals.push(String(((res.body.data as Json).details as Json).image));
      }
      expect(refusals[0]).toBe('The image URL could not be fetched.');
      expect(refusals[1]).toBe(refusals[0]);
    } finally {
      await guarded.close();
    }
  });

  it('refuses an image URL from a contributor, who may not upload files, and fetches nothing', async () => {
    srv.seen.length = 0;
    const res = await create(event('Contributor', 3, { image: imageUrl(3, 3, 'contrib') }), 'contributor');
    expectError(res, 400, 'rest_invalid_param');
    expect((res.body.data as Json).params).toEqual({
      image: expect.stringMatching(/^image was refused: .*upload files/),
    });
    expect(String(((res.body.data as Json).details as Json).image)).toMatch(/upload files/);
    expect(srv.seen).toEqual([]);
    expect(await uploaded('contrib')).toEqual([]);
  });

  it.each([
    ['answers 404', '/missing.png', /HTTP 404/],
    ['is an HTML page', '/page.html', /text\/html/],
    ['redirects', '/moved.png', /HTTP 302/],
    ['claims to be a PNG but is text', '/liar.png', /not such an image/],
  ])('refuses a URL that %s with the reason, and creates nothing', async (_why, path, reason) => {
    const title = `Refused ${path} ${tok}`;
    const res = await create({ ...event('x', 4), title, image: `${srv.url}${path}` });
    expectError(res, 400, 'rest_invalid_param');
    expect(String(((res.body.data as Json).details as Json).image)).toMatch(reason);
    const found = await call<Json>(
      t,
      'GET',
      `/events?search=${encodeURIComponent(title)}&status=draft,publish`,
      {
        as: 'admin',
      },
    );
    expect(found.body.events).toEqual([]);
  });

  it('removes the upload and the nested venue again when the event write then fails', async () => {
    // An author may upload files but not give the event to another user: WordPress refuses the event itself.
    const res = await create(
      event('Rollback', 5, {
        author: 1,
        image: imageUrl(3, 3, 'rollback'),
        venue: { venue: `Rollback hall ${tok}`, image: imageUrl(2, 2, 'rollbackvenue') },
      }),
      'author',
    );
    expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(srv.seen).toContain(`GET /img/3x3/${tok}rollback.png`);
    expect(await uploaded('rollback')).toEqual([]);
    const halls = await call<Json>(t, 'GET', `/venues?search=${encodeURIComponent(`Rollback hall ${tok}`)}`, {
      as: 'admin',
    });
    expect(halls.body.venues ?? []).toEqual([]);
  });
});

describe('image URLs on venue and organizer writes', () => {
  it('uploads the image of a venue created directly or nested in an event', async () => {
    const direct = await call<Json>(t, 'POST', '/venues', {
      as: 'editor',
      body: { venue: `Gallery ${tok}`, image: imageUrl(5, 5, 'gallery') },
    });
    expect(direct.status, JSON.stringify(direct.body)).toBe(201);
    venues.push(direct.body.id as number);
    expect(direct.body.image).toMatchObject({ width: 5, height: 5, extension: 'png' });

    const nested = await create(
      event('Nested', 6, { venue: { venue: `Atrium ${tok}`, image: imageUrl(7, 3, 'atrium') } }),
    );
    expect(nested.status, JSON.stringify(nested.body)).toBe(201);
    const venue = nested.body.venue as Json;
    venues.push(venue.id as number);
    expect(venue.image).toMatchObject({ width: 7, height: 3 });
    const read = await call<Json>(t, 'GET', `/venues/${venue.id}`);
    expect(read.body.image).toEqual(venue.image);
  });

  it('uploads the image of an organizer nested in an event and of one updated directly', async () => {
    const nested = await create(
      event('Organized', 7, { organizer: [{ organizer: `Host ${tok}`, image: imageUrl(2, 3, 'host') }] }),
    );
    expect(nested.status, JSON.stringify(nested.body)).toBe(201);
    const [host] = nested.body.organizer as Json[];
    organizers.push(host?.id as number);
    expect(host?.image).toMatchObject({ width: 2, height: 3 });
    const updated = await call<Json>(t, 'PATCH', `/organizers/${host?.id}`, {
      as: 'editor',
      body: { image: imageUrl(9, 9, 'hostnew') },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.image).toMatchObject({ width: 9, height: 9 });
    expect(updated.body.organizer).toBe(`Host ${tok}`);
  });

  it('refuses a venue or nested venue image id that is not an image attachment, as for events', async () => {
    const other = await create(event('Not a venue image', 15));
    expect(other.status).toBe(201);
    const direct = await call<Json>(t, 'POST', '/venues', {
      as: 'editor',
      body: { venue: `Bad image hall ${tok}`, image: String(other.body.id) },
    });
    expectError(direct, 400, 'rest_invalid_param');
    const nested = await create(
      event('Nested bad image', 16, {
        venue: { venue: `Bad nested hall ${tok}`, image: String(other.body.id) },
      }),
    );
    expectError(nested, 400, 'rest_invalid_param');
    for (const name of [`Bad image hall ${tok}`, `Bad nested hall ${tok}`]) {
      const found = await call<Json>(t, 'GET', `/venues?search=${encodeURIComponent(name)}`, { as: 'admin' });
      expect(found.body.venues ?? []).toEqual([]);
    }
  });

  it('refuses a venue image URL that is not an image, and leaves the venue unchanged', async () => {
    const created = await call<Json>(t, 'POST', '/venues', { as: 'editor', body: { venue: `Plain ${tok}` } });
    expect(created.status).toBe(201);
    venues.push(created.body.id as number);
    const res = await call<Json>(t, 'POST', `/venues/${created.body.id}`, {
      as: 'editor',
      body: { city: 'Changed', image: `${srv.url}/page.html` },
    });
    expectError(res, 400, 'rest_invalid_param');
    const read = await call<Json>(t, 'GET', `/venues/${created.body.id}`);
    expect(read.body).not.toHaveProperty('city');
    expect(read.body).not.toHaveProperty('image');
  });
});
