// Stage: the route's handler, given what the stages before it worked out; it returns data, never bytes.
import type { Stage } from '../http/exchange.ts';

export const handle: Stage = async (x) => {
  if (!x.args || !x.ctx) throw new Error('handle runs after parse');
  x.result = await x.binding.handler({
    args: x.args,
    params: x.params,
    body: x.body,
    ctx: x.ctx,
    site: x.site,
    raw: x.raw,
  });
};
