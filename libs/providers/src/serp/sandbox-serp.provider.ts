import { seededRandom } from '@app/core';
import {
  SerpPosted,
  SerpProvider,
  SerpReadyTask,
  SerpTaskAnswer,
  SerpTaskRequest,
} from './serp-provider';
import type { DfsSerpItem, DfsSerpResult } from './serp.types';

/** What a sandbox task id carries: everything its SERP is drawn from (no state to lose). */
interface SandboxTask {
  k: string;
  l: number;
  g: string;
  d: 'desktop' | 'mobile';
  n: number;
  t: string;
  /** YYYY-MM-DD: the UTC day it was posted */
  day: string;
}

const PREFIX = 'sandbox-';
const COMPETITORS = [
  'outdoorhub',
  'gearlab',
  'trailnews',
  'shopworld',
  'wikihub',
  'reviewly',
  'bestpicks',
  'dailyguide',
];

/** Feature item types a sandbox SERP may show, with their odds per keyword. */
const FEATURES: ReadonlyArray<readonly [string, number]> = [
  ['ai_overview', 0.35],
  ['featured_snippet', 0.3],
  ['people_also_ask', 0.6],
  ['local_pack', 0.2],
  ['images', 0.3],
  ['video', 0.25],
  ['popular_products', 0.15],
  ['knowledge_graph', 0.15],
];

/**
 * The offline SERP adapter (docs/rank-collection.md, "Embedded default"): tasks are ready at
 * once, free, and answered deterministically by keyword, market, device and day: each keyword
 * has a home position for the project's domain (a quarter are not ranked), moved by a few
 * places each day, and a set of features that changes now and then.
 */
export class SandboxSerpProvider extends SerpProvider {
  readonly name = 'sandbox' as const;
  /** Posted by this process and not collected yet (tasks_ready); a task's id carries its SERP. */
  private readonly ready = new Map<string, string>();

  constructor(private readonly now: () => Date = () => new Date()) {
    super();
  }

  postTasks(tasks: SerpTaskRequest[]): Promise<SerpPosted[]> {
    const day = this.now().toISOString().slice(0, 10);
    return Promise.resolve(
      tasks.map((t) => {
        const body: SandboxTask = {
          k: t.keyword,
          l: t.locationCode,
          g: t.languageCode,
          d: t.device,
          n: t.depth,
          t: t.target,
          day,
        };
        const taskId = PREFIX + Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
        this.ready.set(taskId, t.tag);
        return { tag: t.tag, ok: true as const, taskId, cost: 0 };
      }),
    );
  }

  tasksReady(): Promise<SerpReadyTask[]> {
    return Promise.resolve([...this.ready].map(([id, tag]) => ({ id, tag })));
  }

  taskGet(id: string): Promise<SerpTaskAnswer> {
    this.ready.delete(id);
    const task = decode(id);
    if (!task) return Promise.resolve({ kind: 'failed', code: 40401, message: 'Task Not Found.' });
    return Promise.resolve({ kind: 'done', result: sandboxSerp(task) });
  }
}

function decode(id: string): SandboxTask | null {
  if (!id.startsWith(PREFIX)) return null;
  try {
    const t = JSON.parse(
      Buffer.from(id.slice(PREFIX.length), 'base64url').toString('utf8'),
    ) as SandboxTask;
    return typeof t.k === 'string' && typeof t.t === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(t.day)
      ? t
      : null;
  } catch {
    return null;
  }
}

/** The target's position that day: its home position moved by -3..+3; null when not ranked. */
export function sandboxPosition(
  keyword: string,
  market: string,
  day: string,
  depth: number,
): number | null {
  const r = seededRandom(`serp|${keyword}|${market}`);
  if (r() < 0.25) return null;
  const home = 1 + Math.floor(r() * 40);
  const move = Math.floor(seededRandom(`serp|${keyword}|${market}|${day}`)() * 7) - 3;
  const position = Math.max(1, home + move);
  return position <= depth ? position : null;
}

/** The SERP features of a keyword's market this week (shown above the organic results). */
function sandboxFeatures(t: SandboxTask, market: string): DfsSerpItem[] {
  const week = Math.floor(Date.parse(`${t.day}T00:00:00Z`) / (7 * 86_400_000));
  const rf = seededRandom(`serp-features|${t.k}|${market}|${week}`);
  const features = FEATURES.filter(([, odds]) => rf() < odds).map(([type]) => type);
  return features.map((type) => ({
    type,
    rank_group: 1,
    rank_absolute: 0,
    domain: null,
    url: null,
  }));
}

/** The organic results: the target's page at `position`, competitors elsewhere. */
function sandboxOrganic(t: SandboxTask, position: number | null): DfsSerpItem[] {
  const slug =
    t.k
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'page';
  const items: DfsSerpItem[] = [];
  for (let rank = 1; rank <= Math.min(t.n, 100); rank++) {
    const mine = rank === position;
    const domain = mine
      ? `www.${t.t}`
      : `www.${COMPETITORS[rank % COMPETITORS.length]}${rank}.example`;
    items.push({
      type: 'organic',
      rank_group: rank,
      rank_absolute: 0,
      domain,
      url: `https://${domain}/${slug}`,
      links:
        mine && rank <= 3
          ? [{ type: 'link_element', title: 'More', url: `https://${domain}/more`, domain }]
          : null,
    });
  }
  return items;
}

function sandboxSerp(t: SandboxTask): DfsSerpResult {
  const market = `${t.l}|${t.g}|${t.d}`;
  const features = sandboxFeatures(t, market);
  const position = sandboxPosition(t.k, market, t.day, t.n);
  const items = [...features, ...sandboxOrganic(t, position)];
  items.forEach((item, i) => (item.rank_absolute = i + 1));
  return {
    keyword: t.k,
    datetime: `${t.day} 06:00:00 +00:00`,
    item_types: [...new Set(items.map((i) => String(i.type)))],
    items,
  };
}
