// The ops API of webhooks under /calendar-gateway/v1/webhooks: administrators only (manage_options), as /status.
import express, { type Request, type Response } from 'express';
import { asOperator, json } from '../cache/ops.ts';
import type { Deps } from '../deps.ts';
import { WebhookAdmin } from './manage.ts';
import type { Webhooks } from './service.ts';

export function webhooksRouter(deps: Deps, webhooks: Webhooks): express.Router {
  const router = express.Router();
  const admin = new WebhookAdmin(webhooks);
  const body = express.json({ limit: '64kb', strict: false });
  const as =
    (what: string, status: number, action: (req: Request) => Promise<unknown>) =>
    (req: Request, res: Response) =>
      asOperator(deps, req, res, what, async () => {
        json(res, status, await action(req));
      });
  const id = (req: Request) => String(req.params.id);

  router.post(
    '/webhooks',
    body,
    as('Managing webhooks', 201, (req) => admin.create(req.body)),
  );
  router.get(
    '/webhooks',
    as('Managing webhooks', 200, () => admin.list()),
  );
  router.get(
    '/webhooks/:id',
    as('Managing webhooks', 200, (req) => admin.get(id(req))),
  );
  router.patch(
    '/webhooks/:id',
    body,
    as('Managing webhooks', 200, (req) => admin.update(id(req), req.body)),
  );
  router.delete(
    '/webhooks/:id',
    as('Managing webhooks', 200, (req) => admin.remove(id(req))),
  );
  router.post(
    '/webhooks/:id/rotate',
    as('Managing webhooks', 200, (req) => admin.rotate(id(req))),
  );
  router.get(
    '/webhooks/:id/attempts',
    as('Managing webhooks', 200, (req) => admin.attempts(id(req))),
  );
  router.post(
    '/webhooks/:id/redeliver/:message',
    as('Managing webhooks', 202, (req) => admin.redeliver(id(req), String(req.params.message))),
  );
  return router;
}
