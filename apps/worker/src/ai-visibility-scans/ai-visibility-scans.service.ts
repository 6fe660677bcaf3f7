import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig, Clock, metrics, plainDate } from '@app/core';
import { AiVisibilityIngestionRepository } from '@app/database';
import {
  AiEngineProvider,
  AiPromptAnswer,
  TrackedBrand,
  isAiEngine,
  llmResponsesEndpoint,
  readAnswer,
  scanFigures,
} from '@app/providers';
import {
  AiVisibilityScansRepository,
  ClaimedProject,
  PromptRecord,
} from './ai-visibility-scans.repository';

/** Most projects one run scans (the next tick goes on). */
const MAX_PROJECTS_PER_RUN = 50;
/** A claim's lease: longer than any scan (prompts / concurrency × the call timeout). */
const CLAIM_LEASE_MS = 30 * 60_000;
const DAY_MS = 86_400_000;

export interface AiScanRunResult {
  projects: number;
  asked: number;
  answered: number;
  failed: number;
  stored: number;
}

/** The tracked brands of a project: its own first, then its competitors. */
export function trackedBrands(p: ClaimedProject): TrackedBrand[] {
  return [
    { name: p.brand_name, domain: p.domain, aliases: p.brand_aliases, brand: true },
    ...p.competitors.map((c) => ({ name: c.name, domain: c.domain, brand: false })),
  ];
}

/**
 * AI-visibility scans (docs/ai-visibility-scans.md): claims each due project, asks the
 * prompts of the UTC day not answered yet through its engine (within the engine's
 * concurrency limit), records every answer and its cost, and once every prompt of the day
 * is answered stores the snapshot through the ingestion write path; a scan with failed
 * prompts is due again after AI_VISIBILITY_SCAN_INTERVAL_SECONDS.
 */
@Injectable()
export class AiVisibilityScansService {
  private readonly logger = new Logger(AiVisibilityScansService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly scans: AiVisibilityScansRepository,
    private readonly ingestion: AiVisibilityIngestionRepository,
    private readonly engines: AiEngineProvider,
    private readonly clock: Clock,
  ) {}

  async runDue(): Promise<AiScanRunResult> {
    const result: AiScanRunResult = { projects: 0, asked: 0, answered: 0, failed: 0, stored: 0 };
    for (let i = 0; i < MAX_PROJECTS_PER_RUN; i++) {
      const now = this.clock.now();
      const project = await this.scans.claimDue(now, new Date(now.getTime() + CLAIM_LEASE_MS));
      if (!project) break;
      result.projects++;
      await this.scan(project, result);
    }
    if (result.projects) this.logger.log({ ...result }, 'AI-visibility scans: run done');
    return result;
  }

  /** Scans one claimed project for the UTC day the scan started. */
  async scan(p: ClaimedProject, result: AiScanRunResult): Promise<void> {
    const started = this.clock.now();
    const day = plainDate(started);
    const engine = p.ai_engine;
    if (!isAiEngine(engine)) {
      await this.finishFailed(p, `unknown ai_engine ${engine}`);
      return;
    }
    const endpoint = llmResponsesEndpoint(engine);
    const brands = trackedBrands(p);
    const answered = await this.scans.answeredPrompts(p.id, day, engine);
    const pending = p.prompts.filter((q) => !answered.has(q));
    const errors: string[] = [];
    // Every prompt at once: the provider keeps the engine's concurrency limit.
    await Promise.all(
      pending.map(async (prompt) => {
        const answer = await this.engines
          .ask({
            engine,
            prompt,
            country: p.target_country,
            tag: `ai:${p.id}:${day}`,
            brands: brands.map(({ name, domain }) => ({ name, domain })),
          })
          .catch((err: unknown): AiPromptAnswer => ({
            ok: false,
            code: null,
            message: String(err),
            cost: 0,
          }));
        result.asked++;
        const record = promptRecord(prompt, answer, brands);
        if (!answer.ok) {
          errors.push(`${answer.code ?? 'request'}: ${answer.message}`);
          result.failed++;
        } else result.answered++;
        if (answer.cost > 0) metrics.providerSpendUsd.inc({ endpoint }, answer.cost);
        metrics.providerTasks.inc({ endpoint, result: answer.ok ? 'collected' : 'failed' });
        await this.scans.recordPrompt(p, day, endpoint, record, this.clock.now());
      }),
    );
    const now = this.clock.now();
    if (errors.length) {
      await this.finishFailed(
        p,
        `${errors.length} of ${p.prompts.length} prompts failed; ${errors[0]}`,
      );
      return;
    }
    const answers = await this.scans.answers(p.id, day, engine, p.prompts);
    if (answers.length < p.prompts.length) {
      await this.finishFailed(p, 'prompts changed during the scan');
      return;
    }
    const f = scanFigures(
      answers.map((a) => ({ text: a.answer, urls: a.cited_urls })),
      brands,
    );
    await this.ingestion.storeScan(
      p.id,
      {
        snapshot_date: day,
        visibility_score: f.visibility_score,
        geo_score: f.geo_score,
        mention_rate: f.mention_rate,
        avg_position: f.avg_position,
        sentiment_avg: f.sentiment_avg,
        citation_rate: f.citation_rate,
        competition_score: f.competition_score,
        prompts_evaluated: f.prompts_evaluated,
        brand_mentions: f.brand_mentions,
        competitors: f.competitors,
      },
      now,
    );
    result.stored++;
    const every = p.tracking_frequency === 'weekly' ? 7 * DAY_MS : DAY_MS;
    await this.scans.finish(p, new Date(started.getTime() + every), null, day, now);
  }

  private async finishFailed(p: ClaimedProject, error: string): Promise<void> {
    const now = this.clock.now();
    const next = new Date(now.getTime() + this.config.aiVisibilityScans.intervalSeconds * 1000);
    this.logger.warn({ projectId: p.id, error }, 'AI-visibility scan incomplete; retried later');
    await this.scans.finish(p, next, error.slice(0, 500), null, now);
  }
}

/** What is recorded of a prompt's answer: its text, citations and the brands read from it. */
function promptRecord(prompt: string, a: AiPromptAnswer, brands: TrackedBrand[]): PromptRecord {
  if (!a.ok)
    return {
      prompt,
      answered: false,
      answer: null,
      citedUrls: [],
      mentions: [],
      sentiment: null,
      cost: a.cost,
      error: `${a.code ?? 'request'}: ${a.message}`.slice(0, 500),
    };
  const reading = readAnswer({ text: a.text, urls: a.urls }, brands);
  const s = reading.brandSentences;
  return {
    prompt,
    answered: true,
    answer: a.text,
    citedUrls: a.urls,
    mentions: reading.mentions,
    sentiment: s.length ? s.reduce((x, y) => x + y, 0) / s.length : null,
    cost: a.cost,
    error: null,
  };
}
