// All handler bindings of the namespace; each resource group contributes its own.
import type { Deps } from './deps.ts';
import { eventBindings } from './events/routes.ts';
import type { Binding } from './http/handler.ts';
import { linkedBindings } from './linked/routes.ts';
import { termBindings } from './terms/routes.ts';

export function allBindings(deps: Deps): Binding[] {
  return [...eventBindings(deps), ...linkedBindings(deps), ...termBindings(deps)];
}
