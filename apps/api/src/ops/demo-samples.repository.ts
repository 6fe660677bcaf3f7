import { Injectable } from '@nestjs/common';
import { Sql } from '@app/database';
import type { SampleIds } from '@app/gateway';
import { DEMO_ACCOUNT_NAME, DEMO_SAMPLE_TARGETS } from './demo-sample-targets';

type Row = { [K in keyof Required<SampleIds>]: string | null };

/**
 * The demo account's rows that the samples of /docs name (DEMO_SAMPLE_TARGETS, made by the
 * demo seed), found by their natural keys in one statement when the document is built.
 */
@Injectable()
export class DemoSamplesRepository {
  constructor(private readonly sql: Sql) {}

  /** The demo's ids by SAMPLE_IDS name (a missing row left out); null without a demo account. */
  async sampleIds(): Promise<SampleIds | null> {
    const t = DEMO_SAMPLE_TARGETS;
    const row = await this.sql.one<Row>(
      `WITH demo AS (SELECT id FROM accounts WHERE name = $1 ORDER BY id LIMIT 1)
       SELECT
         (SELECT p.id::text FROM rank_projects p WHERE p.account_id = demo.id AND p.domain = $2) AS "rankProject",
         (SELECT p.id::text FROM rank_projects p WHERE p.account_id = demo.id AND p.domain = $3) AS "spareRankProject",
         (SELECT k.id::text FROM tracked_keywords k JOIN rank_projects p ON p.id = k.project_id
           WHERE k.account_id = demo.id AND p.domain = $2 AND k.keyword = $4 ORDER BY k.id LIMIT 1) AS "rankKeyword",
         (SELECT k.id::text FROM tracked_keywords k JOIN rank_projects p ON p.id = k.project_id
           WHERE k.account_id = demo.id AND p.domain = $2 AND k.keyword = $5 ORDER BY k.id LIMIT 1) AS "spareRankKeyword",
         (SELECT g.id::text FROM gsc_properties g WHERE g.account_id = demo.id AND g.property_uri = $6) AS "gscProperty",
         (SELECT a.id::text FROM ai_visibility_projects a
           WHERE a.account_id = demo.id AND a.domain = $7 AND a.ai_engine = $8) AS "aiProject",
         (SELECT a.id::text FROM ai_visibility_projects a
           WHERE a.account_id = demo.id AND a.domain = $3 AND a.ai_engine = $8) AS "spareAiProject",
         (SELECT j.id FROM jobs j WHERE j.account_id = demo.id AND j.status = 'complete'
           ORDER BY j.created_at DESC LIMIT 1) AS "job"
       FROM demo`,
      [
        DEMO_ACCOUNT_NAME,
        t.rankProjectDomain,
        t.spareDomain,
        t.rankKeyword,
        t.spareRankKeyword,
        t.gscPropertyUri,
        t.aiProjectDomain,
        t.aiProjectEngine,
      ],
    );
    if (!row) return null;
    return Object.fromEntries(
      Object.entries(row).filter((e): e is [string, string] => e[1] !== null),
    ) as SampleIds;
  }
}
