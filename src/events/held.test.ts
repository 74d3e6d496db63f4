import { describe, expect, it } from 'vitest';
import { loadMappingSync } from '../mapping/test-support.ts';
import type { WpPost } from '../wp/types.ts';
import { heldEventTags, publicCopy } from './held.ts';

const tec = loadMappingSync('mappings/tec.json');

const written = {
  id: 7,
  date: '2030-01-01T10:00:00',
  date_gmt: '2030-01-01T15:00:00',
  guid: { rendered: 'https://x.test/?p=7', raw: 'https://x.test/?p=7' },
  modified: '2030-01-01T10:00:00',
  modified_gmt: '2030-01-01T15:00:00',
  password: '',
  slug: 'seven',
  status: 'publish',
  type: 'tribe_events',
  link: 'https://x.test/seven/',
  permalink_template: 'https://x.test/%postname%/',
  generated_slug: 'seven',
  title: { raw: 'Seven', rendered: 'Seven' },
  content: { raw: 'Body', rendered: '<p>Body</p>\n', protected: false, block_version: 0 },
  excerpt: { raw: '', rendered: '<p>Body</p>\n', protected: false },
  featured_media: 12,
  meta: { _EventVenueID: 3, _EventOrganizerID: [4, 5] },
  tribe_events_cat: [8],
  tags: [9],
} as unknown as WpPost;

describe('held events', () => {
  it("keeps of a write's answer what an anonymous view read answers", () => {
    const copy = publicCopy(written) as unknown as Record<string, unknown>;
    for (const k of ['password', 'permalink_template', 'generated_slug']) expect(copy).not.toHaveProperty(k);
    expect(copy.title).toEqual({ rendered: 'Seven' });
    expect(copy.content).toEqual({ rendered: '<p>Body</p>\n', protected: false });
    expect(copy.guid).toEqual({ rendered: 'https://x.test/?p=7' });
    expect(copy.meta).toEqual(written.meta);
    expect(Object.keys(copy)[0]).toBe('id');
  });

  it('leaves with its venue, organizers, terms and image', () => {
    expect(heldEventTags(tec, written).sort()).toEqual(
      [
        'media:12',
        'organizer:4',
        'organizer:5',
        'term:post_tag:9',
        'term:tribe_events_cat:8',
        'venue:3',
      ].sort(),
    );
  });
});
