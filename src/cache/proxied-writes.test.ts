import { describe, expect, it } from 'vitest';
import { loadMappingSync } from '../mapping/test-support.ts';
import { planOf } from './notify.ts';
import { changesOfBatch } from './proxied-batch.ts';
import {
  changeOfWrite,
  effectiveMethod,
  isBatch,
  isMappedWrite,
  isSettingsWrite,
  userDeleteOf,
} from './proxied-writes.ts';

const tec = loadMappingSync('mappings/tec.json');
const custom = loadMappingSync('mappings/custom.json');

describe('isMappedWrite', () => {
  it.each([
    ['POST', '/wp-json/wp/v2/tribe_events', true],
    ['POST', '/wp-json/wp/v2/tribe_events/12?_locale=user', true],
    ['PATCH', '/es/wp-json/wp/v2/tribe_venue/3', true],
    ['DELETE', '/wp-json/wp/v2/tribe_events_cat/7?force=true', true],
    ['PUT', '/wp-json/wp/v2/tags/8', true],
    ['GET', '/wp-json/wp/v2/tribe_events/12', false],
    ['POST', '/wp-json/wp/v2/posts/12', false],
    ['POST', '/wp-json/wp/v2/tribe_events/12/autosaves', false],
    ['POST', '/wp-json/calendar/events/v1/events', false],
  ])('%s %s → %s', (method, url, want) => {
    expect(isMappedWrite(tec, method, url)).toBe(want);
  });

  it("follows the mapping's own rest_base names", () => {
    expect(isMappedWrite(custom, 'POST', `/wp-json/wp/v2/${custom.event.restBase}/1`)).toBe(true);
  });
});

describe('effectiveMethod', () => {
  it("takes WordPress's method overrides, the query's first", () => {
    expect(effectiveMethod('GET', '/wp-json/wp/v2/tribe_events/5?_method=delete', undefined)).toBe('DELETE');
    expect(effectiveMethod('POST', '/wp-json/wp/v2/tribe_events/5', 'PATCH')).toBe('PATCH');
    expect(effectiveMethod('POST', '/x?_method=PUT', 'DELETE')).toBe('PUT');
    expect(effectiveMethod('post', '/x', undefined)).toBe('POST');
  });
});

describe('changeOfWrite', () => {
  it('takes the id of an update or a delete from the path', () => {
    expect(changeOfWrite(tec, 'POST', '/wp-json/wp/v2/tribe_events/12', 200, { id: 12 })).toEqual({
      kind: 'post',
      type: 'tribe_events',
      id: 12,
      action: 'save',
    });
    expect(
      changeOfWrite(tec, 'DELETE', '/wp-json/wp/v2/tribe_organizer/4?force=true', 200, {
        deleted: true,
        previous: { id: 4 },
      }),
    ).toEqual({ kind: 'post', type: 'tribe_organizer', id: 4, action: 'delete' });
  });

  it('takes the id of a create from WordPress’s answer', () => {
    expect(changeOfWrite(tec, 'POST', '/wp-json/wp/v2/tribe_events', 201, { id: 99 })).toMatchObject({
      id: 99,
    });
    expect(changeOfWrite(tec, 'POST', '/wp-json/wp/v2/tags', 201, { id: 5 })).toEqual({
      kind: 'term',
      type: 'post_tag',
      id: 5,
      action: 'edit',
    });
  });

  it('ignores refused writes, answers without an id and unmapped routes', () => {
    expect(
      changeOfWrite(tec, 'POST', '/wp-json/wp/v2/tribe_events', 401, { code: 'rest_cannot_create' }),
    ).toBe(undefined);
    expect(changeOfWrite(tec, 'POST', '/wp-json/wp/v2/tribe_events', 201, 'not json')).toBe(undefined);
    expect(changeOfWrite(tec, 'POST', '/wp-json/wp/v2/posts/3', 200, { id: 3 })).toBe(undefined);
  });

  it('plans what the companion plugin’s notification of the same write plans', () => {
    const change = changeOfWrite(tec, 'POST', '/wp-json/wp/v2/tribe_events/12', 200, { id: 12 })!;
    expect(planOf({ time: 0, changes: [change] }, tec)).toEqual({
      events: [12],
      tags: ['event:12', 'list:event'],
      terms: false,
    });
  });
});

describe('media writes', () => {
  it.each([
    ['DELETE', '/wp-json/wp/v2/media/12?force=true', true],
    ['POST', '/wp-json/wp/v2/media/12', true],
    ['POST', '/wp-json/wp/v2/media/12/post-process', true],
    ['POST', '/wp-json/wp/v2/media', true],
    ['POST', '/wp-json/wp/v2/media/12/edit', false],
    ['POST', '/wp-json/wp/v2/tribe_events/12/post-process', false],
  ])('%s %s → %s', (method, url, want) => {
    expect(isMappedWrite(tec, method, url)).toBe(want);
  });

  it('drop the answers showing the attachment, and nothing else', () => {
    const change = changeOfWrite(tec, 'DELETE', '/wp-json/wp/v2/media/12?force=true', 200, {
      deleted: true,
      previous: { id: 12 },
    })!;
    expect(change).toEqual({ kind: 'post', type: 'attachment', id: 12, action: 'delete' });
    expect(planOf({ time: 0, changes: [change] }, tec)).toEqual({
      events: [],
      tags: ['media:12'],
      terms: false,
    });
    expect(changeOfWrite(tec, 'POST', '/wp-json/wp/v2/media/12/post-process', 200, { id: 12 })).toMatchObject(
      {
        type: 'attachment',
        id: 12,
      },
    );
  });
});

describe('batch writes', () => {
  it('are read whole, on either language root', () => {
    expect(isBatch('POST', '/wp-json/batch/v1')).toBe(true);
    expect(isBatch('POST', '/es/wp-json/batch/v1/?_locale=user')).toBe(true);
    expect(isBatch('GET', '/wp-json/batch/v1')).toBe(false);
    expect(isMappedWrite(tec, 'POST', '/wp-json/batch/v1')).toBe(true);
  });

  const asked = {
    requests: [
      { path: '/wp/v2/tribe_events', body: { title: 'new' } },
      { method: 'put', path: '/wp/v2/tribe_venue/4?_locale=user', body: { title: 'moved' } },
      { method: 'DELETE', path: '/wp/v2/tags/8?force=true' },
      { method: 'POST', path: '/wp/v2/posts/3', body: {} },
      { method: 'POST', path: '/wp/v2/tribe_events/77', body: {} },
    ],
  };
  const answered = {
    responses: [
      { status: 201, body: { id: 90 }, headers: {} },
      { status: 200, body: { id: 4 }, headers: {} },
      { status: 200, body: { deleted: true, previous: { id: 8 } }, headers: {} },
      { status: 200, body: { id: 3 }, headers: {} },
      { status: 404, body: { code: 'rest_post_invalid_id' }, headers: {} },
    ],
  };

  it("apply each sub-request's successful write as the same write alone, in order", () => {
    expect(changesOfBatch(tec, asked, 207, answered)).toEqual([
      { kind: 'post', type: 'tribe_events', id: 90, action: 'save' },
      { kind: 'post', type: 'tribe_venue', id: 4, action: 'save' },
      { kind: 'term', type: 'post_tag', id: 8, action: 'delete' },
    ]);
  });

  it('apply nothing of a batch refused whole, whose validation failed, or that cannot be read', () => {
    expect(changesOfBatch(tec, asked, 400, answered)).toEqual([]);
    expect(changesOfBatch(tec, asked, 207, { failed: 'validation', responses: answered.responses })).toEqual(
      [],
    );
    expect(changesOfBatch(tec, undefined, 207, answered)).toEqual([]);
    expect(changesOfBatch(tec, { requests: 'x' }, 207, answered)).toEqual([]);
    expect(changesOfBatch(tec, { requests: [{ path: 'wp/v2/tribe_events/1' }] }, 207, answered)).toEqual([]);
  });
});

describe('settings writes', () => {
  it.each([
    ['POST', '/wp-json/wp/v2/settings', true],
    ['PATCH', '/es/wp-json/wp/v2/settings/?_locale=user', true],
    ['GET', '/wp-json/wp/v2/settings', false],
    ['POST', '/wp-json/wp/v2/settings/other', false],
  ])('%s %s → %s', (method, url, want) => {
    expect(isSettingsWrite(method, url)).toBe(want);
    expect(isMappedWrite(tec, method, url)).toBe(want);
  });
});

describe('user deletes', () => {
  it('name the deleted user, or none for users/me; any other request is none', () => {
    expect(userDeleteOf('DELETE', '/wp-json/wp/v2/users/7?force=true&reassign=1')).toEqual({ id: 7 });
    expect(userDeleteOf('DELETE', '/wp-json/wp/v2/users/me?force=true&reassign=1')).toEqual({});
    expect(userDeleteOf('POST', '/wp-json/wp/v2/users/7')).toBeUndefined();
    expect(userDeleteOf('DELETE', '/wp-json/wp/v2/users/7/application-passwords')).toBeUndefined();
    expect(isMappedWrite(tec, 'DELETE', '/wp-json/wp/v2/users/7?force=true')).toBe(true);
  });
});
