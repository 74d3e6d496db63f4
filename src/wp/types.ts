// Shapes of the wp/v2 objects the gateway reads (the fields it asks for; WordPress sends more).

export interface Rendered {
  rendered: string;
  raw?: string;
  protected?: boolean;
}

export type MetaValue = string | number | boolean | null | Array<string | number | boolean>;

export interface WpPost {
  id: number;
  date: string; // `2026-11-22T10:00:00`, site-local
  date_gmt: string | null;
  modified: string;
  modified_gmt: string;
  slug: string;
  status: string;
  type: string;
  link: string;
  title: Rendered;
  content?: Rendered;
  excerpt?: Rendered;
  author?: number;
  featured_media?: number;
  menu_order?: number;
  parent?: number;
  password?: string; // context=edit only
  meta?: Record<string, MetaValue>;
  /** Taxonomy terms by rest_base: `tribe_events_cat: [3, 4]`. */
  [restBase: string]: unknown;
}

export interface WpTerm {
  id: number;
  count: number;
  description: string;
  link: string;
  name: string;
  slug: string;
  taxonomy: string;
  parent?: number;
  meta?: Record<string, MetaValue> | unknown[];
}

export interface WpMedia {
  id: number;
  source_url: string;
  mime_type: string;
  media_details?: {
    width?: number;
    height?: number;
    filesize?: number;
    file?: string;
    sizes?: Record<
      string,
      { width: number; height: number; mime_type: string; source_url: string; filesize?: number }
    >;
  };
}

export interface WpUser {
  id: number;
  name: string;
  slug: string;
  roles?: string[];
  capabilities?: Record<string, boolean>;
}

export interface WpList<T> {
  items: T[];
  total: number;
  totalPages: number;
}

/** WordPress's error body. */
export interface WpErrorBody {
  code: string;
  message: string;
  data?: { status?: number; [k: string]: unknown };
}
