// The ops API of webhooks under /calendar-gateway/v1/webhooks: administrators only (manage_options), as /status.
import express, { type Request, type Response } from 'express';
import { asOperator, json } from '../cache/ops.ts';
import type { Deps } from '../deps.ts';
import { WebhookAdmin } from './manage.ts';
import type { Webhooks } from './service.ts';

export function webhooksRouter(deps: Deps, webhooks: Webhooks): express.Router {
  const router = express.Router();
  const admin = new WebhookAdmin(webhooks);
  const json_ = express.json({ limit: '64kb', strict: false });
  // The body is read once the caller is known to be an administrator: nobody else makes the gateway parse anything.
  const readBody = (req: Request, res: Response) =>
    new Promise<unknown>((resolve, reject) =>
      json_(req, res, (err?: unknown) => (err ? reject(err) : resolve(req.body))),
    );
  const as =
    (what: string, status: number, action: (req: Request, res: Response) => Promise<unknown>) =>
    (req: Request, res: Response) =>
      asOperator(deps, req, res, what, async () => {
        json(res, status, await action(req, res));
      });
  const id = (req: Request) => String(req.params.id);

  router.post(
    '/webhooks',
    as('Managing webhooks', 201, async (req, res) => admin.create(await readBody(req, res))),
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
    as('Managing webhooks', 200, async (req, res) => admin.update(id(req), await readBody(req, res))),
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
