// Loads a SeedSite into the mock store (users 1..5, terms, 3 images, then posts with links resolved to ids).
import type { SeedSite } from '../seed-types.ts';
import type { Store } from './store.ts';

const IMAGES = [
  { slug: 'concert-hall', title: 'Concert hall', width: 1200, height: 800 },
  { slug: 'park-stage', title: 'Park stage', width: 1600, height: 900 },
  { slug: 'workshop-table', title: 'Workshop table', width: 1024, height: 768 },
];

export function loadSeed(store: Store, seed: SeedSite, withImages = true): void {
  for (const u of seed.users) store.addUser(u);
  const userId = (login: string) => store.users.find((u) => u.login === login)?.id ?? 1;
  const byRestBase = new Map(store.model.taxonomies.map((t) => [t.restBase, t.name]));

  const termIds = new Map<string, Map<string, number>>();
  for (const [restBase, terms] of Object.entries(seed.taxonomies)) {
    const taxonomy = byRestBase.get(restBase) ?? restBase;
    const ids = new Map<string, number>();
    for (const t of terms) {
      const parent = t.parent ? (ids.get(t.parent) ?? 0) : 0;
      const existing = [...store.terms.values()].find((x) => x.taxonomy === taxonomy && x.slug === t.slug);
      const term =
        existing ??
        store.insertTerm({ taxonomy, name: t.name, slug: t.slug, description: t.description, parent });
      ids.set(t.slug, term.id);
    }
    termIds.set(restBase, ids);
  }

  const mediaIds: number[] = [];
  if (withImages) {
    const date = seed.posts[0]?.date ?? store.gmtToLocal(store.nowGmt());
    for (const img of IMAGES) {
      const m = store.insertPost({
        type: 'attachment',
        status: 'inherit',
        author: 1,
        title: img.title,
        slug: img.slug,
        date,
        modified: date,
        modifiedGmt: store.localToGmt(date),
        media: {
          file: `2026/01/${img.slug}.jpg`,
          width: img.width,
          height: img.height,
          mime: 'image/jpeg',
          alt: img.title,
        },
      });
      mediaIds.push(m.id);
    }
  }

  const postIds = new Map<string, number>();
  let eventIndex = 0;
  let venueIndex = 0;
  for (const p of seed.posts) {
    const meta: Record<string, Array<string | number>> = {};
    for (const [key, value] of Object.entries(p.meta)) {
      meta[key] = Array.isArray(value)
        ? [...value]
        : [typeof value === 'boolean' ? (value ? '1' : '') : value];
    }
    for (const [key, keys] of Object.entries(p.links)) {
      meta[key] = keys.map((k) => {
        const id = postIds.get(k);
        if (id === undefined) throw new Error(`seed post ${p.key} links to unknown ${k}`);
        return id;
      });
    }
    const terms: Record<string, number[]> = {};
    for (const [restBase, slugs] of Object.entries(p.terms)) {
      const ids = termIds.get(restBase);
      terms[byRestBase.get(restBase) ?? restBase] = slugs
        .map((s) => ids?.get(s))
        .filter((x): x is number => x !== undefined);
    }
    // Images are a mock-only extra: every 10th event and the first two venues get one.
    let featuredMedia = 0;
    if (mediaIds.length > 0 && p.kind === 'event' && eventIndex++ % 10 === 0)
      featuredMedia = mediaIds[eventIndex % 3] ?? 0;
    if (mediaIds.length > 0 && p.kind === 'venue' && venueIndex++ < 2)
      featuredMedia = mediaIds[venueIndex] ?? 0;
    const nowLocal = store.gmtToLocal(store.nowGmt());
    const modified = [p.date, nowLocal].sort()[0] as string;
    const post = store.insertPost({
      type: p.postType,
      status: p.status,
      password: p.password ?? '',
      author: userId(p.author),
      title: p.title,
      content: p.content,
      excerpt: p.excerpt,
      slug: p.slug,
      date: p.date,
      modified,
      modifiedGmt: store.localToGmt(modified),
      menuOrder: p.menuOrder ?? 0,
      featuredMedia,
      meta,
      terms,
    });
    postIds.set(p.key, post.id);
  }
}
