// What the mock WordPress has registered for a mapping: post types, taxonomies and REST meta keys (as the companion does).
import type { FieldSource, Mapping, ResourceKind, StorageFormat } from '../../src/mapping/schema.ts';
import { metaKeysOf } from '../../src/mapping/schema.ts';
import { WRITE_META } from '../../src/wp/probe.ts';

/** WRITE_META as the companion plugin registers it on posts, terms and attachments. */
export const WRITE_META_INFO: MetaKeyInfo = { type: 'string', single: true, editOnly: true };

export interface MetaKeyInfo {
  /** register_post_meta type: the companion registers ints as integer and everything else as string. */
  type: 'integer' | 'string';
  /** Lists (int-list, string-list) are one row per value: single => false. */
  single: boolean;
  /** Registered default (bool keys with a mapping default): what REST reads when the row is absent. */
  default?: string;
  /** Shown in the edit context only (WRITE_META: readers never see which write made a record). */
  editOnly?: boolean;
}

export interface PostTypeInfo {
  name: string;
  restBase: string;
  kind: ResourceKind;
  label: string;
  /** Taxonomy names attached to the type. */
  taxonomies: string[];
  meta: Map<string, MetaKeyInfo>;
  /** The event type's series_parent meta key, which the companion's `calendar_gateway_series` filter reads. */
  seriesMeta?: string;
}

export interface TaxonomyInfo {
  name: string;
  restBase: string;
  hierarchical: boolean;
  label: string;
  /** Post type names the taxonomy is attached to. */
  types: string[];
}

export interface SiteModel {
  postTypes: PostTypeInfo[];
  taxonomies: TaxonomyInfo[];
}

/** Mirrors calendar_gateway_meta_args() in wordpress/companion/calendar-gateway-companion.php. */
export function metaKeyInfo(format: StorageFormat, fallback?: string | number | boolean | null): MetaKeyInfo {
  const list = format === 'int-list' || format === 'string-list';
  const info: MetaKeyInfo = {
    type: format === 'int' || format === 'int-list' ? 'integer' : 'string',
    single: !list,
  };
  if (format === 'bool' && fallback !== undefined && fallback !== null) info.default = fallback ? '1' : '';
  return info;
}

export function siteModel(mapping: Mapping): SiteModel {
  const keys = metaKeysOf(mapping);
  const taxonomies: TaxonomyInfo[] = [
    { name: 'category', restBase: 'categories', hierarchical: true, label: 'Categories', types: ['post'] },
    { name: 'post_tag', restBase: 'tags', hierarchical: false, label: 'Tags', types: ['post'] },
  ];
  const eventType = mapping.event.postType;
  const eventTaxonomies: string[] = [];
  for (const which of ['categories', 'tags'] as const) {
    const tax = mapping.event[which];
    if (!tax) continue;
    eventTaxonomies.push(tax.taxonomy);
    const existing = taxonomies.find((t) => t.name === tax.taxonomy);
    if (existing) existing.types.push(eventType);
    else {
      const label = which === 'categories' ? 'Categories' : 'Tags';
      taxonomies.push({
        name: tax.taxonomy,
        restBase: tax.restBase,
        hierarchical: tax.hierarchical,
        label,
        types: [eventType],
      });
    }
  }
  const series = mapping.event.fields.series_parent;
  const postTypes = (['event', 'venue', 'organizer'] as const).map((kind): PostTypeInfo => {
    const res = mapping[kind];
    const meta = new Map<string, MetaKeyInfo>();
    const defaults = new Map<string, string | number | boolean | null | undefined>();
    for (const src of Object.values(res.fields) as Array<FieldSource | undefined>) {
      if (src && 'meta' in src) defaults.set(src.meta, src.default);
    }
    for (const [key, format] of keys.get(res.postType) ?? [])
      meta.set(key, metaKeyInfo(format, defaults.get(key)));
    meta.set(WRITE_META, WRITE_META_INFO);
    return {
      name: res.postType,
      restBase: res.restBase,
      kind,
      label: `${kind[0]?.toUpperCase()}${kind.slice(1)}s`,
      taxonomies: kind === 'event' ? eventTaxonomies : [],
      meta,
      ...(kind === 'event' && series && 'meta' in series ? { seriesMeta: series.meta } : {}),
    };
  });
  return { postTypes, taxonomies };
}

/** The REST value of one registered key from its stored rows (WP_REST_Meta_Fields::get_value + prepare_value). */
export function metaValue(info: MetaKeyInfo, rows: Array<string | number> | undefined): unknown {
  const cast = (v: string | number): string | number | null => {
    if (info.type === 'string') return String(v);
    if (v === '') return 0;
    const n = Number(v);
    return Number.isInteger(n) ? n : null;
  };
  if (!info.single) return (rows ?? []).map(cast);
  if (!rows || rows.length === 0) return info.default ?? (info.type === 'integer' ? 0 : '');
  return cast(rows[0] as string | number);
}

/** rest_is_integer: an integer number or a numeric string holding one. */
function isInteger(v: unknown): boolean {
  if (typeof v === 'number') return Number.isInteger(v);
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)))
    return Number.isInteger(Number(v));
  return false;
}

/**
 * rest_validate_value_from_schema for one meta key: returns the error message, or null when valid.
 * WordPress checks strings strictly (`is_string`), integers leniently (numeric strings pass).
 */
export function validateMeta(key: string, info: MetaKeyInfo, value: unknown): string | null {
  const checkOne = (v: unknown, param: string): string | null => {
    if (info.type === 'integer') return isInteger(v) ? null : `${param} is not of type integer.`;
    return typeof v === 'string' ? null : `${param} is not of type string.`;
  };
  if (info.single) return checkOne(value, `meta.${key}`);
  // rest_is_array also accepts a comma-separated string.
  const list = typeof value === 'string' ? value.split(/[\s,]+/).filter(Boolean) : value;
  if (!Array.isArray(list)) return `meta.${key} is not of type array.`;
  for (let i = 0; i < list.length; i++) {
    const err = checkOne(list[i], `meta.${key}[${i}]`);
    if (err) return err;
  }
  return null;
}

/** Sanitised rows to store for a valid value (rest_sanitize_value_from_schema). */
export function metaRows(info: MetaKeyInfo, value: unknown): Array<string | number> {
  const one = (v: unknown): string | number => (info.type === 'integer' ? Number(v) : String(v));
  if (info.single) return [one(value)];
  const list = typeof value === 'string' ? value.split(/[\s,]+/).filter(Boolean) : (value as unknown[]);
  return list.map(one);
}
