import { RankKeywordPages } from './rank-keyword-pages';
import { KeywordPage, RankRepository, UNCHANGED } from './rank.repository';

/**
 * The keeping rules of RankKeywordPages over a repository stand-in that answers as
 * RankRepository.keywordPage does (the real one, with the database, is tested in
 * test/your-data/rank-kept-pages.e2e-spec.ts).
 */
class PagesStandIn {
  version = '1';
  reads: string[] = [];
  entry = '{"a":1}';
  keep = true;
  total = 1;

  async keywordPage(
    accountId: number,
    projectId: number | null,
    limit: number,
    offset: number,
    today: string,
    kept: string | null,
  ): Promise<KeywordPage | typeof UNCHANGED> {
    if (kept === this.version) return UNCHANGED;
    this.reads.push(`${accountId}:${projectId}:${limit}${offset ? `+${offset}` : ''}:${today}`);
    return { entries: [this.entry], total: this.total, version: this.keep ? this.version : null };
  }
}

describe('RankKeywordPages', () => {
  let repo: PagesStandIn;
  let pages: RankKeywordPages;
  beforeEach(() => {
    repo = new PagesStandIn();
    pages = new RankKeywordPages(repo as unknown as RankRepository);
  });

  it('serves a kept page while the version is unchanged, and reads again when it moved', async () => {
    const first = await pages.page(1, null, 100, 0, '2026-06-15');
    expect(first.json.toString()).toBe('[{"a":1}]');
    expect(first.count).toBe(1);
    expect((await pages.page(1, null, 100, 0, '2026-06-15')).json).toBe(first.json);
    expect(repo.reads).toHaveLength(1);
    repo.version = '2';
    repo.entry = '{"a":2}';
    expect((await pages.page(1, null, 100, 0, '2026-06-15')).json.toString()).toBe('[{"a":2}]');
    expect(repo.reads).toHaveLength(2);
  });

  it('keeps one page per account, project, limit, offset and day', async () => {
    await pages.page(1, null, 100, 0, '2026-06-15');
    await pages.page(2, null, 100, 0, '2026-06-15');
    await pages.page(1, 7, 100, 0, '2026-06-15');
    await pages.page(1, null, 10, 0, '2026-06-15');
    await pages.page(1, null, 100, 0, '2026-06-16');
    await pages.page(1, null, 100, 100, '2026-06-15');
    await pages.page(1, null, 100, 0, '2026-06-15');
    expect(repo.reads).toEqual([
      '1:null:100:2026-06-15',
      '2:null:100:2026-06-15',
      '1:7:100:2026-06-15',
      '1:null:10:2026-06-15',
      '1:null:100:2026-06-16',
      '1:null:100+100:2026-06-15',
    ]);
  });

  it('keeps each offset as its own page, with its total, until the version moves', async () => {
    repo.total = 1200;
    const first = await pages.page(1, null, 500, 0, '2026-06-15');
    const second = await pages.page(1, null, 500, 500, '2026-06-15');
    expect(first.total).toBe(1200);
    expect(second.total).toBe(1200);
    repo.total = 7; // as if it changed without a new version: the kept total is served
    expect((await pages.page(1, null, 500, 500, '2026-06-15')).total).toBe(1200);
    expect((await pages.page(1, null, 500, 0, '2026-06-15')).json).toBe(first.json);
    expect(repo.reads).toEqual(['1:null:500:2026-06-15', '1:null:500+500:2026-06-15']);
    repo.version = '2';
    expect((await pages.page(1, null, 500, 500, '2026-06-15')).total).toBe(7);
    expect((await pages.page(1, null, 500, 0, '2026-06-15')).total).toBe(7);
    expect(repo.reads).toHaveLength(4);
  });

  it('does not keep a page the repository gives no version for', async () => {
    repo.keep = false;
    await pages.page(1, null, 100, 0, '2026-06-15');
    await pages.page(1, null, 100, 0, '2026-06-15');
    expect(repo.reads).toHaveLength(2);
  });

  it('lets the least recently used pages go beyond 32 MiB, and never keeps a page over 2 MiB', async () => {
    repo.entry = `"${'x'.repeat(2 * 1024 * 1024 - 4)}"`; // a page of exactly 2 MiB
    for (let account = 1; account <= 16; account++) await pages.page(account, null, 100, 0, 'd');
    await pages.page(1, null, 100, 0, 'd'); // account 1 used again: account 2 is now the oldest
    await pages.page(17, null, 100, 0, 'd'); // over 32 MiB: account 2 goes
    repo.reads = [];
    await pages.page(1, null, 100, 0, 'd');
    await pages.page(17, null, 100, 0, 'd');
    expect(repo.reads).toEqual([]);
    await pages.page(2, null, 100, 0, 'd');
    expect(repo.reads).toEqual(['2:null:100:d']);

    repo.entry = `"${'x'.repeat(2 * 1024 * 1024 - 3)}"`; // one byte over
    repo.reads = [];
    await pages.page(99, null, 100, 0, 'd');
    await pages.page(99, null, 100, 0, 'd');
    expect(repo.reads).toHaveLength(2);
  });
});
