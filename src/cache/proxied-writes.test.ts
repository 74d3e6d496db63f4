import { describe, expect, it } from 'vitest';
import { loadMappingSync } from '../mapping/test-support.ts';
import { planOf } from './notify.ts';
import { changeOfWrite, effectiveMethod, isMappedWrite } from './proxied-writes.ts';

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
