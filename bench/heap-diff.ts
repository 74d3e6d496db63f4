// `node bench/heap-diff.ts before.heapsnapshot after.heapsnapshot [rows]`: what grew between two heap snapshots of
// one process (e.g. the soak's at 10 minutes and at its end). Sums self size and count per constructor (objects,
// closures) or per node type (strings, code, array buffers' native backing stores…) and prints the largest changes.
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

type Summary = Map<string, { count: number; bytes: number }>;

function summarise(file: string): { summary: Summary; total: number } {
  const s = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = s.snapshot.meta.node_fields;
  const types = s.snapshot.meta.node_types[0];
  const [iType, iName, iSize] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ];
  const summary: Summary = new Map();
  let total = 0;
  for (let i = 0; i < s.nodes.length; i += fields.length) {
    const type = types[s.nodes[i + iType]!]!;
    const size = s.nodes[i + iSize]!;
    const name = s.strings[s.nodes[i + iName]!]!;
    // Objects and closures by constructor; native nodes by name (e.g. "system / JSArrayBufferData"); the rest by type.
    const key =
      type === 'object' || type === 'closure' || type === 'native'
        ? `${type} ${name.slice(0, 60)}`
        : `(${type})`;
    const e = summary.get(key) ?? { count: 0, bytes: 0 };
    e.count++;
    e.bytes += size;
    summary.set(key, e);
    total += size;
  }
  return { summary, total };
}

const [beforeFile, afterFile, rows = '25'] = process.argv.slice(2);
if (!beforeFile || !afterFile) {
  console.error('usage: node bench/heap-diff.ts before.heapsnapshot after.heapsnapshot [rows]');
  process.exit(2);
}
const before = summarise(beforeFile);
const after = summarise(afterFile);
const MB = 2 ** 20;
console.log(`total self size: ${(before.total / MB).toFixed(1)} → ${(after.total / MB).toFixed(1)} MB`);
const keys = new Set([...before.summary.keys(), ...after.summary.keys()]);
const diff = [...keys].map((k) => {
  const a = before.summary.get(k) ?? { count: 0, bytes: 0 };
  const b = after.summary.get(k) ?? { count: 0, bytes: 0 };
  return { k, a, b, d: b.bytes - a.bytes };
});
console.log('| what | count before → after | MB before → after | Δ MB |\n|---|---|---|---|');
for (const { k, a, b, d } of diff.sort((x, y) => Math.abs(y.d) - Math.abs(x.d)).slice(0, Number(rows))) {
  console.log(
    `| ${k} | ${a.count} → ${b.count} | ${(a.bytes / MB).toFixed(2)} → ${(b.bytes / MB).toFixed(2)} | ${(d / MB).toFixed(2)} |`,
  );
}
