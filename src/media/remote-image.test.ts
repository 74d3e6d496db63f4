import { imageSize } from 'image-size';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ImageServer, png, startImageServer } from '../../test/support/image-server.ts';
import { filenameFor, isImageOf, mediaType, RemoteImageError, RemoteImages } from './remote-image.ts';

let srv: ImageServer;
beforeAll(async () => {
  srv = await startImageServer(1024);
});
afterAll(async () => {
  await srv.close();
});

const images = (over: Partial<ConstructorParameters<typeof RemoteImages>[0]> = {}) =>
  new RemoteImages({ allowPrivateHosts: true, maxBytes: 1024, timeoutMs: 1000, ...over });
const fails = async (p: Promise<unknown>, message: RegExp) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RemoteImageError);
  expect((err as Error).message).toMatch(message);
};

describe('RemoteImages.fetch', () => {
  it('checks the URL with HEAD, then reads the image, its type and a file name', async () => {
    srv.seen.length = 0;
    const img = await images().fetch(new URL(`${srv.url}/img/5x3/poster.png`));
    expect(img.type).toBe('image/png');
    expect(img.filename).toBe('poster.png');
    expect(imageSize(img.bytes)).toMatchObject({ width: 5, height: 3, type: 'png' });
    expect(srv.seen).toEqual(['HEAD /img/5x3/poster.png', 'GET /img/5x3/poster.png']);
  });

  it('refuses private and loopback addresses unless they are allowed (SSRF guard)', async () => {
    srv.seen.length = 0;
    await fails(images({ allowPrivateHosts: false }).fetch(new URL(`${srv.url}/img/2x2/a.png`)), /private/);
    await fails(
      images({ allowPrivateHosts: false }).fetch(new URL('http://169.254.169.254/latest')),
      /private/,
    );
    expect(srv.seen).toEqual([]);
  });

  it("names neither the resolver's answer nor where a name points: an unknown and a private name read alike", async () => {
    const refusal = (url: string) =>
      images({ allowPrivateHosts: false })
        .fetch(new URL(url))
        .then(
          () => new RemoteImageError('fetched'),
          (e: unknown) => e as RemoteImageError,
        );
    const unknown = await refusal('http://no-such-host.calendar-gateway.invalid/x.png');
    const privateName = await refusal(`${srv.url.replace('127.0.0.1', 'localhost')}/img/2x2/a.png`);
    for (const err of [unknown, privateName]) {
      expect(err).toBeInstanceOf(RemoteImageError);
      expect(err.message).toBe('The image URL could not be fetched.');
    }
    // The log still learns why.
    expect(unknown.detail).toMatch(/ENOTFOUND|EAI_AGAIN/);
    expect(privateName.detail).toMatch(/not allowed/i);
  });

  it.each([
    ['/missing.png', /HTTP 404/],
    ['/moved.png', /HTTP 302/],
    ['/page.html', /serves text\/html, not an image/],
    ['/big.png', /larger than the 1024 bytes/],
  ])('refuses %s with the reason', async (path, message) => {
    await fails(images().fetch(new URL(`${srv.url}${path}`)), message);
  });

  it('refuses an image whose declared length is over the limit before reading it', async () => {
    await fails(
      images({ maxBytes: 50 }).fetch(new URL(`${srv.url}/img/40x40/large.png`)),
      /larger than the 50/,
    );
  });

  it('gives up on a URL that does not answer in time', async () => {
    await fails(images({ timeoutMs: 200 }).fetch(new URL(`${srv.url}/slow.png`)), /no answer within 200 ms/);
  });

  it('says so when nothing listens there', async () => {
    const port = new URL(srv.url).port;
    await fails(
      images().fetch(new URL(`http://127.0.0.1:${Number(port) === 1 ? 2 : 1}/x.png`)),
      /could not be fetched/,
    );
  });
});

describe('isImageOf', () => {
  it('is true only for bytes that are an image of the claimed type', () => {
    const image = png(3, 2);
    expect(isImageOf(image, 'image/png')).toBe(true);
    expect(isImageOf(image, 'image/jpeg')).toBe(false);
    expect(isImageOf(Buffer.from('<html>not an image</html>'), 'image/png')).toBe(false);
    expect(isImageOf(image.subarray(0, 8), 'image/png')).toBe(false);
    expect(isImageOf(image, 'image/svg+xml')).toBe(false);
  });
});

describe('RemoteImages.parse', () => {
  it.each([
    ['https://example.com/a.png', true],
    ['HTTP://example.com/a.png', true],
    ['ftp://example.com/a.png', false],
    ['file:///etc/passwd', false],
    ['picture', false],
    ['https://', false],
  ])('%s → URL: %s', (value, ok) => {
    expect(RemoteImages.parse(value) !== null).toBe(ok);
  });
});

describe('filenameFor', () => {
  it.each([
    ['https://x.test/a/poster.png', 'image/png', 'poster.png'],
    ['https://x.test/a/photo.JPG', 'image/jpeg', 'photo.JPG'],
    ['https://x.test/a/photo.jpeg?w=10', 'image/jpeg', 'photo.jpeg'],
    ['https://x.test/a/download', 'image/png', 'download.png'],
    ['https://x.test/a/pic.php', 'image/gif', 'pic.gif'],
    ['https://x.test/', 'image/webp', 'image.webp'],
    ['https://x.test/my%20best%20photo.png', 'image/png', 'my-best-photo.png'],
    ['https://x.test/..%2F..%2Fetc.png', 'image/png', 'etc.png'],
  ])('%s (%s) → %s', (url, type, name) => {
    expect(filenameFor(new URL(url), type)).toBe(name);
  });
});

describe('mediaType', () => {
  it('drops parameters and case', () => {
    expect(mediaType('Image/PNG; charset=binary')).toBe('image/png');
    expect(mediaType(undefined)).toBe('');
  });
});
