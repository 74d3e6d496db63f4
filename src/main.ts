// `npm start`: the gateway in front of UPSTREAM_URL, or in demo mode on the in-memory WordPress of mocks/.
import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig } from './config.ts';
import { helpText } from './config-doc.ts';
import { REFERENCE_PATH } from './discovery/reference.ts';
import { loadMapping, startGateway } from './gateway.ts';
import { ApiError } from './http/errors.ts';
import { createLogger } from './log.ts';
import { redactUrl } from './observe/redact.ts';
import { ProbeError } from './wp/probe.ts';

const DEMO_UPSTREAM = 'http://wordpress.demo/wp-json';
const DEMO_USERS = ['admin', 'editor', 'author', 'contributor', 'subscriber'];

// http-proxy (under http-proxy-middleware) still calls util._extend; Node's DEP0060 warning on every start tells an
// operator nothing they can act on. Every other warning is printed as usual.
const emitWarning = process.emitWarning;
process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  const code = typeof rest[0] === 'object' ? (rest[0] as { code?: string } | null)?.code : rest[1];
  if (code === 'DEP0060') return;
  return (emitWarning as (...a: unknown[]) => void).call(process, warning, ...rest);
}) as typeof process.emitWarning;

/** The upstream being probed, for the start-up error message. */
let probedUrl: string | undefined;

async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(helpText());
    return;
  }
  const config = loadConfig(process.argv.slice(2), process.env);
  const log = createLogger(config.logLevel);
  let upstreamUrl = config.upstreamUrl;
  let upstreamAuth = config.upstreamAuth;
  let demo: { note: string; paste: string } | undefined;
  if (!upstreamUrl) {
    const password = config.demoPassword ?? randomBytes(12).toString('base64url');
    // The production image leaves mocks/ out (deploy/Dockerfile's `demo` target has it).
    const demoModule = (path: string) =>
      import(path).catch((err: NodeJS.ErrnoException) => {
        if (err?.code !== 'ERR_MODULE_NOT_FOUND') throw err;
        throw new ConfigError(
          'UPSTREAM_URL is not set, and this installation has no demo mode (mocks/ is not here, as in the production image): set UPSTREAM_URL to your WordPress, e.g. https://example.com/wp-json.',
        );
      });
    const { startMockWordPress } = (await demoModule(
      '../mocks/wordpress/index.ts',
    )) as typeof import('../mocks/wordpress/index.ts');
    const { buildSeed } = (await demoModule(
      '../mocks/seed-data.ts',
    )) as typeof import('../mocks/seed-data.ts');
    const mapping = await loadMapping(config.mapping);
    startMockWordPress({
      mapping,
      baseUrl: DEMO_UPSTREAM,
      seed: buildSeed(mapping, new Date(), { events: config.demoEvents }),
      usersPassword: password,
    });
    upstreamUrl = DEMO_UPSTREAM;
    upstreamAuth = `admin:${password}`;
    // A line to paste, so the README's signed-in examples (`curl -u "editor:$DEMO_PASSWORD" …`) work as written. It
    // is a log line of its own whose message is the command alone, so a JSON log (no terminal) holds it unescaped.
    demo = {
      note:
        `Demo mode: an in-memory WordPress with a sample calendar of ${config.demoEvents} events. Users ${DEMO_USERS.join(', ')} each have ` +
        `the application password ${config.demoPassword ? 'you set in DEMO_PASSWORD' : `${password} (generated; set DEMO_PASSWORD to choose one)`}. ` +
        "For the README's examples, paste the next line into your shell:",
      paste: `export DEMO_PASSWORD='${password.replaceAll("'", "'\\''")}'`,
    };
  }
  probedUrl = upstreamUrl;
  let stopping = false;
  let close: (() => Promise<void>) | undefined;
  // SIGTERM (process managers, compose) stops accepting, lets requests in flight finish, closes Redis, exits 0.
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing requests in flight');
    await close?.();
    log.info({ signal }, 'stopped');
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const gateway = await startGateway(
    // The demo delivers webhooks to http://localhost receivers (`npm run webhooks:receive`): nothing real is behind it.
    { ...config, upstreamUrl, upstreamAuth, ...(demo ? { webhookAllowPrivateTargets: true } : {}) },
    {
      log,
      retry: true,
      demo: demo !== undefined,
      onListening: (url) => {
        const origin = `http://localhost:${url.split(':').pop()}`;
        log.info(
          { url: `${origin}/wp-json/calendar/events/v1`, reference: `${origin}${REFERENCE_PATH}/` },
          `calendar-gateway listening on ${origin}/wp-json/calendar/events/v1 (ready once the event index is built); ` +
            `API reference in a browser: ${origin}${REFERENCE_PATH}/`,
        );
        if (demo) {
          log.info({ mode: 'demo', users: DEMO_USERS }, demo.note);
          log.info({ demo: true }, demo.paste);
        }
      },
    },
  );
  close = gateway.close;
  if (stopping) await gateway.close();
  log.info('ready');
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof ProbeError) {
    process.stderr.write(`calendar-gateway cannot start.\n${err.message}\n`);
  } else if (err instanceof ApiError && err.status >= 500) {
    // The probe could not talk to WordPress at all: name the URL and what to check.
    process.stderr.write(
      `calendar-gateway cannot start: ${err.message} (${err.code}, ${probedUrl ? redactUrl(probedUrl) : 'the upstream'}).\n` +
        'Check that UPSTREAM_URL is the REST root of a running WordPress, e.g. https://example.com/wp-json.\n',
    );
  } else if (err instanceof ApiError && err.status === 401 && err.code !== 'rest_forbidden_context') {
    process.stderr.write(
      `calendar-gateway cannot start: WordPress refused UPSTREAM_AUTH (${err.code}). Use user:application-password.\n`,
    );
  } else if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
    // The account exists but may not read drafts in edit context (a subscriber, a contributor).
    process.stderr.write(
      `calendar-gateway cannot start: WordPress says "${err.message}" (${err.code}).\n` +
        "UPSTREAM_AUTH's user lacks the rights the event index needs: use an editor's (or an administrator's) application password.\n",
    );
  } else {
    process.stderr.write(`calendar-gateway cannot start: ${(err as Error)?.message ?? String(err)}\n`);
  }
  process.exit(1);
});
