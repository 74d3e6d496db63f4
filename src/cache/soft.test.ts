import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inPublicView, softChange, type Viewable } from './soft.ts';

const pub: Viewable = { status: 'publish', protected: false, hidden: false };

describe('softChange', () => {
  it.each<[string, Viewable | undefined, Viewable | undefined, boolean, boolean]>([
    ['a create', undefined, pub, true, true],
    ['a create of a draft', undefined, { status: 'draft' }, true, true],
    ['an edit of a public record', pub, pub, true, true],
    ['a draft published', { status: 'draft' }, pub, true, true],
    ['a trash', pub, { status: 'trash' }, true, false],
    ['a delete', pub, undefined, true, false],
    ['an unpublish to draft', pub, { status: 'draft' }, true, false],
    ['made private', pub, { status: 'private' }, true, false],
    ['a password set', pub, { ...pub, protected: true }, true, false],
    ['hidden from listings', pub, { ...pub, hidden: true }, true, false],
    ['a draft trashed', { status: 'draft' }, { status: 'trash' }, true, true],
    ['an update of a record not known before', undefined, pub, false, false],
  ])('%s: soft is %s', (_name, before, after, known, soft) => {
    expect(softChange(before, after, known)).toBe(soft);
  });

  it('is never soft when a record the public saw is out of its view after', () => {
    const viewable = fc.record({
      status: fc.constantFrom('publish', 'draft', 'private', 'pending', 'future', 'trash'),
      protected: fc.boolean(),
      hidden: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.option(viewable, { nil: undefined }),
        fc.option(viewable, { nil: undefined }),
        (b, a) => {
          if (b && inPublicView(b) && !(a && inPublicView(a))) expect(softChange(b, a)).toBe(false);
        },
      ),
    );
  });
});
