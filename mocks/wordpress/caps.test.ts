// map_meta_cap for capability_type 'post', search-term parsing and Basic auth, as pure functions.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Role } from '../seed-types.ts';
import { authenticate, canPost, hasCap, type MockUser } from './caps.ts';
import { searchTerms } from './posts-query.ts';

const ROLES: Role[] = ['administrator', 'editor', 'author', 'contributor', 'subscriber'];
const user = (role: Role, id = 7): MockUser => ({
  id,
  login: role,
  name: role,
  slug: role,
  email: `${role}@x.test`,
  role,
});

describe('canPost', () => {
  // [role, action, own post?, status, allowed]
  it.each([
    ['editor', 'edit', false, 'publish', true],
    ['editor', 'read', false, 'private', true],
    ['author', 'edit', true, 'publish', true],
    ['author', 'edit', false, 'draft', false],
    ['author', 'read', false, 'private', false],
    ['author', 'delete', true, 'publish', true],
    ['contributor', 'edit', true, 'draft', true],
    ['contributor', 'edit', true, 'publish', false],
    ['contributor', 'delete', true, 'pending', true],
    ['contributor', 'read', false, 'draft', false],
    ['subscriber', 'edit', true, 'draft', false],
    ['subscriber', 'read', true, 'draft', true],
  ] as const)('lets %s %s a %s post (own: %s → %s)', (role, action, own, status, allowed) => {
    expect(canPost(user(role), action, { author: own ? 7 : 1, status })).toBe(allowed);
  });

  it('never lets an anonymous caller do anything', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('edit', 'delete', 'read'),
        fc.constantFrom('publish', 'draft', 'private', 'future'),
        (a, s) => {
          expect(canPost(null, a as 'edit', { author: 0, status: s })).toBe(false);
        },
      ),
    );
  });

  it('judges a trashed post by its status before trashing', () => {
    expect(canPost(user('contributor'), 'delete', { author: 7, status: 'trash', trashedFrom: 'draft' })).toBe(
      true,
    );
    expect(
      canPost(user('contributor'), 'delete', { author: 7, status: 'trash', trashedFrom: 'publish' }),
    ).toBe(false);
  });

  it('gives each role its own name as a capability', () => {
    for (const r of ROLES) expect(hasCap(user(r), r)).toBe(true);
  });
});

describe('searchTerms', () => {
  it.each([
    ['jazz night', ['jazz', 'night']],
    ['Night at the Blue Note', ['Night', 'Blue', 'Note']],
    ['"blue note" jazz', ['blue note', 'jazz']],
    ['the', ['the']],
  ])('splits %j into %j', (input, expected) => {
    expect(searchTerms(input).map((t) => t.term)).toEqual(expected);
  });

  it('marks a leading minus as an exclusion', () => {
    expect(searchTerms('jazz -night')).toEqual([
      { term: 'jazz', exclude: false },
      { term: 'night', exclude: true },
    ]);
  });
});

describe('authenticate', () => {
  const users = ROLES.map((r, i) => user(r, i + 1));
  const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;

  it('finds the user for the right application password, with or without its spaces', () => {
    expect(authenticate(basic('editor:abcd efgh'), users, 'abcd efgh')?.role).toBe('editor');
    expect(authenticate(basic('editor:abcdefgh'), users, 'abcd efgh')?.role).toBe('editor');
  });

  it('resolves a wrong password, an unknown login or another scheme to nobody', () => {
    expect(authenticate(basic('editor:nope'), users, 'abcd efgh')).toBeNull();
    expect(authenticate(basic('ghost:abcd efgh'), users, 'abcd efgh')).toBeNull();
    expect(authenticate('Bearer abc', users, 'abcd efgh')).toBeNull();
  });
});
