// What WordPress's global parameters cost on a cached list, side by side with the plain list, on a demo gateway:
//   node bench/global-params.ts
// Prints requests per second and p50 of a cached 10-event list as it is (served by the fast path), with `_fields`,
// `_envelope` and `_jsonp` (each made once per stored answer, then sent as stored bytes through the stages), and
// the bytes of each. BENCH_SECONDS (5) per row, BENCH_CONNECTIONS (50).
import { gatewayEnv, hasWrk, runLoad, type Server, startChild } from './lib.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const LIST = '/wp-json/calendar/events/v1/events?per_page=10';
const ROWS = [
  ['list as it is', LIST],
  ['_fields=events,total', `${LIST}&_fields=events,total`],
  ['_fields=total', `${LIST}&_fields=total`],
  ['_envelope', `${LIST}&_envelope`],
  ['_jsonp=cb', `${LIST}&_jsonp=cb`],
] as const;

async function main(): Promise<void> {
  const tool = hasWrk() ? 'wrk' : 'autocannon';
  let gw: Server | undefined;
  try {
    gw = await startChild(['src/main.ts'], gatewayEnv({ DEMO_PASSWORD: 'bench-password' }));
    console.log(`${tool}, ${CONNECTIONS} connections, ${SECONDS} s per row, node ${process.version}`);
    console.log('| request | bytes | req/s | p50 ms | non-2xx |');
    console.log('|---|---|---|---|---|');
    for (const [name, path] of ROWS) {
      const url = `${gw.url}${path}`;
      const bytes = (await (await fetch(url, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer())
        .byteLength;
      await runLoad({ tool, url, connections: CONNECTIONS, seconds: 1 });
      const r = await runLoad({ tool, url, connections: CONNECTIONS, seconds: SECONDS });
      console.log(`| ${name} | ${bytes} | ${Math.round(r.rps)} | ${r.p50ms.toFixed(2)} | ${r.non2xx} |`);
    }
  } finally {
    await gw?.stop();
  }
}

await main();
