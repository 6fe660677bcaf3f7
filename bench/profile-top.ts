import { readFileSync } from 'node:fs';

/**
 * `node dist/bench/profile-top.js <file.cpuprofile> [N]`: the top-N functions of a V8 CPU
 * profile by self time, and the self time by where the code lives (our code, each package,
 * Node's own modules, GC, native), as markdown tables for docs/performance.md.
 */
interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Where a frame's code lives: a package, node's own modules, our code, or V8's pseudo-frames. */
export function placeOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node (built-in modules)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const ours = /\/((?:apps|libs)\/[^/]+)\/src\//.exec(url);
  return ours ? `ours: ${ours[1]}` : url;
}

function shortUrl(url: string): string {
  const i = url.lastIndexOf('node_modules/');
  if (i >= 0) return url.slice(i + 'node_modules/'.length);
  const d = url.indexOf('/dist/');
  if (d >= 0) return url.slice(d + '/dist/'.length);
  return url.replace(/^file:\/\//, '');
}

function main(): void {
  const [file, n = '20'] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-top <file.cpuprofile> [N]');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  // The profiler's own work (the preload's signal handler stopping it) is left out.
  const own = new Set<number>();
  const markOwn = (node: ProfileNode, inside: boolean): void => {
    const here = inside || node.callFrame.url.endsWith('/bench/cpu-profile-preload.js');
    if (here) own.add(node.id);
    for (const child of node.children ?? []) markOwn(byId.get(child)!, here);
  };
  markOwn(profile.nodes[0], false);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    if (own.has(id)) return;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const idle = [...selfUs.entries()]
    .filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)')
    .reduce((a, [, us]) => a + us, 0);
  const busy = total - idle;

  const functions = new Map<string, { us: number; place: string }>();
  const places = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') continue;
    const name = frame.url
      ? `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`
      : frame.functionName;
    const place = placeOf(frame);
    const entry = functions.get(name) ?? { us: 0, place };
    entry.us += us;
    functions.set(name, entry);
    places.set(place, (places.get(place) ?? 0) + us);
  }
  const pct = (us: number) => `${((us / busy) * 100).toFixed(1)}%`;
  console.log(
    `profile: ${(total / 1e6).toFixed(2)} s sampled, busy ${(busy / 1e6).toFixed(2)} s ` +
      `(${((busy / total) * 100).toFixed(0)}%), idle ${(idle / 1e6).toFixed(2)} s\n`,
  );
  console.log('| # | function (self time) | where | self % of busy |');
  console.log('|---:|---|---|---:|');
  [...functions.entries()]
    .sort((a, b) => b[1].us - a[1].us)
    .slice(0, Number(n))
    .forEach(([name, { us, place }], i) =>
      console.log(`| ${i + 1} | \`${name}\` | ${place} | ${pct(us)} |`),
    );
  console.log('\n| where | self % of busy |');
  console.log('|---|---:|');
  [...places.entries()]
    .sort((a, b) => b[1] - a[1])
    .forEach(([place, us]) => console.log(`| ${place} | ${pct(us)} |`));
}

main();
