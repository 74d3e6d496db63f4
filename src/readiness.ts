// Readiness for load balancers: the default language's event index is built and WordPress answered recently.
import type { Deps } from './deps.ts';

export interface ReadinessReport {
  ready: boolean;
  /** Why not, in words an operator can act on. */
  reasons: string[];
  /**
   * Whether the index is built, not how many events it holds: it counts drafts, private and trashed events too,
   * which an anonymous prober may not learn (operators read the counts at /calendar-gateway/v1/status).
   */
  index: { built_at: string | null };
  upstream: { answered_seconds_ago: number | null };
}

/**
 * Liveness (`/health`) never asks WordPress; readiness does, but at most once per `recentMs` while the gateway's own
 * traffic shows nothing newer, so a load balancer probing every second costs WordPress nothing extra when busy.
 */
export class Readiness {
  readonly #deps: Deps;
  readonly #recentMs: number;
  #probe: Promise<void> | null = null;

  constructor(deps: Deps, recentMs = 30_000) {
    this.#deps = deps;
    this.#recentMs = recentMs;
  }

  async check(): Promise<ReadinessReport> {
    const { wp, indexes, mapping } = this.#deps;
    if (!this.#answeredRecently()) {
      this.#probe ??= wp
        .request({ path: '/', query: { _fields: 'name' }, as: 'anonymous' })
        .then(
          () => {},
          () => {},
        )
        .finally(() => {
          this.#probe = null;
        });
      await this.#probe;
    }
    const index = indexes.all().find((i) => i.language === mapping.language.default);
    const reasons: string[] = [];
    if (!index?.builtAt) reasons.push('the event index of the default language is not built yet');
    if (!this.#answeredRecently()) {
      reasons.push(`WordPress has not answered in the last ${Math.round(this.#recentMs / 1000)} s`);
    }
    const at = wp.lastAnsweredAt;
    return {
      ready: reasons.length === 0,
      reasons,
      index: { built_at: index?.builtAt?.toISOString() ?? null },
      upstream: { answered_seconds_ago: at === undefined ? null : Math.round((Date.now() - at) / 1000) },
    };
  }

  #answeredRecently(): boolean {
    const at = this.#deps.wp.lastAnsweredAt;
    return at !== undefined && Date.now() - at < this.#recentMs;
  }
}
