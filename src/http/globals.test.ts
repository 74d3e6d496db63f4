// Tests for WordPress's global parameters as read and applied here (WP_REST_Server, rest_filter_response_fields).
import { describe, expect, it } from 'vitest';
import {
  effectiveMethod,
  envelopeOf,
  fieldsOf,
  filterFields,
  globalsOf,
  isJsonpCallback,
} from './globals.ts';

describe('fieldsOf (wp_parse_list and the keyed tree)', () => {
  it('reads comma and blank separated lists, nesting `a.b`', () => {
    expect(fieldsOf('id, title\tvenue.venue,venue.city')).toEqual({
      id: true,
      title: true,
      venue: { venue: true, city: true },
    });
  });

  it('reads an array of scalars, trimmed, and names nothing when empty', () => {
    expect(fieldsOf([' id ', 'title'])).toEqual({ id: true, title: true });
    expect(fieldsOf('')).toBeUndefined();
    expect(fieldsOf(' , ')).toBeUndefined();
    expect(fieldsOf([])).toBeUndefined();
  });

  it('keeps a parent whole when named after its children', () => {
    expect(fieldsOf('venue.city,venue')).toEqual({ venue: true });
  });

  it("stops reading at a child of a parent already kept whole, as WordPress's `break 2` does", () => {
    expect(fieldsOf('venue,venue.city,id')).toEqual({ venue: true });
  });
});

describe('filterFields (_rest_array_intersect_key_recursive)', () => {
  const record = {
    id: 1,
    title: 'T',
    venue: { venue: 'V', city: 'C' },
    image: false,
    organizer: [{ id: 2 }],
  };

  it('keeps the named keys in the record order, recursing where both sides nest', () => {
    expect(filterFields(record, fieldsOf('venue.city,id,image.url') as never)).toEqual({
      id: 1,
      venue: { city: 'C' },
      image: false,
    });
  });

  it('filters each item of a top-level list, and keys a nested list by index as PHP does', () => {
    expect(filterFields([record, record], fieldsOf('id') as never)).toEqual([{ id: 1 }, { id: 1 }]);
    expect(filterFields(record, fieldsOf('organizer.id') as never)).toEqual({ organizer: [] });
    expect(filterFields({ a: ['x', 'y', 'z'] }, fieldsOf('a.0,a.1') as never)).toEqual({ a: ['x', 'y'] });
    expect(filterFields({ a: ['x', 'y', 'z'] }, fieldsOf('a.2') as never)).toEqual({ a: { 2: 'z' } });
  });

  it('writes an emptied object as PHP writes an empty array', () => {
    expect(JSON.stringify(filterFields(record, fieldsOf('nothing') as never))).toBe('[]');
    expect(JSON.stringify(filterFields(record, fieldsOf('venue.zip') as never))).toBe('{"venue":[]}');
  });
});

describe('globalsOf, the JSONP callback and the method override', () => {
  it('sees `_envelope` whatever its value, and `_jsonp` only when PHP finds it truthy', () => {
    expect(globalsOf({ _envelope: '' })).toEqual({ envelope: true });
    expect(globalsOf({ _jsonp: '0' })).toEqual({ envelope: false });
    expect(globalsOf({ _jsonp: '' })).toEqual({ envelope: false });
    expect(globalsOf({ _jsonp: 'cb' })).toEqual({ envelope: false, jsonp: 'cb' });
    expect(globalsOf({ _jsonp: ['cb'] })).toEqual({ envelope: false, jsonp: false });
  });

  it('accepts word characters and dots only (wp_check_jsonp_callback)', () => {
    expect(isJsonpCallback('jQuery123_456.cb')).toBe(true);
    for (const bad of ['a(b)', 'a-b', 'a;b', 'a b', '', false] as const)
      expect(isJsonpCallback(bad)).toBe(false);
  });

  it('overrides the method of a POST only, `_method` before the header, upper-cased', () => {
    expect(effectiveMethod('POST', { _method: 'delete' }, { 'x-http-method-override': 'PUT' })).toBe(
      'DELETE',
    );
    expect(effectiveMethod('POST', {}, { 'x-http-method-override': 'patch' })).toBe('PATCH');
    expect(effectiveMethod('POST', {}, {})).toBe('POST');
    expect(effectiveMethod('GET', { _method: 'DELETE' }, { 'x-http-method-override': 'DELETE' })).toBe('GET');
    expect(effectiveMethod('POST', { _method: ['DELETE'] }, {})).toBe('POST');
  });

  it('envelopes with the answer own headers, totals as numbers, none as PHP empty array', () => {
    expect(envelopeOf({ a: 1 }, 404, { 'content-type': 'application/json' })).toEqual({
      body: { a: 1 },
      status: 404,
      headers: [],
    });
    expect(envelopeOf([], 200, { 'x-tec-total': '3', 'x-tec-totalpages': '1', 'retry-after': '5' })).toEqual({
      body: [],
      status: 200,
      headers: { 'X-TEC-Total': 3, 'X-TEC-TotalPages': 1, 'Retry-After': '5' },
    });
  });
});
