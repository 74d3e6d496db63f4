// Binds the namespace index and /doc of one API root; both are generated at request time from the contract.

import { discoveryRoutes as c, NAMESPACE } from '../contract/discovery.ts';
import { allContracts } from '../contract/index.ts';
import type { Deps } from '../deps.ts';
import { unknownNamespace } from '../http/errors.ts';
import { type Binding, bind } from '../http/handler.ts';
import { namespaceIndex } from './describe.ts';
import { openApiDocument } from './openapi.ts';
import type { DescribeEnv, RootInfo } from './root.ts';

/** The REST root (`{site}/wp-json` or `{site}/{lang}/wp-json`) of an API root URL. */
export const restRootOf = (apiRoot: string): string =>
  apiRoot.slice(0, apiRoot.length - NAMESPACE.length - 1);

export function discoveryBindings(deps: Deps, root: RootInfo): Binding[] {
  const env = (): DescribeEnv => ({ root, now: deps.now(), timezone: deps.site.timezone });
  return [
    bind(c.index, async (i) => {
      // WordPress would describe another namespace here; this gateway serves only its own.
      if (i.args.namespace !== NAMESPACE) {
        throw unknownNamespace();
      }
      return { body: namespaceIndex(allContracts(), env(), restRootOf(i.site.apiRoot)) };
    }),
    bind(c.doc, async (i) => ({ body: openApiDocument(allContracts(), env(), i.site.apiRoot) })),
  ];
}
