import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, ApiError, AppConfig, Clock, WithMeta, monthAfter, withMeta } from '@app/core';
import type { AuthContext } from '@app/accounts';
import {
  DEFAULT_LOCATION_CODE,
  KeywordResearchData,
  applyLanguage,
  findMarket,
  normalizeKeyword,
  requestLanguage,
} from '@app/providers';
import { ResearchRunner } from '../research/research-runner.service';
import { Reservation, ReservationsRepository } from '@app/billing';
import { KeywordResearchDto } from './keyword-research.dto';
import { ApiWarning, replacedValue, shown } from '@app/gateway';

const DEFAULT_RELATED_LIMIT = 10;

/**
 * A language_code the answer does not use: unknown (the spec's fallback to en) or not offered
 * in the market (its language instead). "en-US" for en is no change.
 */
function languageWarnings(given: string | undefined, applied: string): ApiWarning[] {
  if (typeof given !== 'string') return [];
  const base = given.trim().toLowerCase().split(/[-_]/)[0];
  if (base === applied) return [];
  const warning = replacedValue('language_code', given, applied);
  if (requestLanguage(given) === base)
    warning.message = `language_code "${shown(given)}" is not offered in this market; ${applied} was applied instead.`;
  return [warning];
}

@Injectable()
export class KeywordResearchService {
  constructor(
    private readonly runner: ResearchRunner,
    private readonly reservations: ReservationsRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async research(
    auth: AuthContext,
    requestId: string,
    body: KeywordResearchDto,
  ): Promise<WithMeta<KeywordResearchData>> {
    const locationCode = body.location_code ?? DEFAULT_LOCATION_CODE;
    const language = applyLanguage(marketOf(locationCode), requestLanguage(body.language_code));
    const keyword = normalizeKeyword(body.keyword);
    const limit = body.limit ?? DEFAULT_RELATED_LIMIT;

    const out = await this.runner.run<KeywordResearchData>({
      accountId: auth.accountId,
      kind: 'keyword_research',
      // Per account (see docs/research.md): location, applied language, limit, keyword.
      requestKey: `${locationCode}|${language.code}|${limit}|${keyword}`,
      ttlSeconds: this.config.keywordCacheTtlSeconds,
      reserve: () => this.reserve(auth, requestId),
      fetch: async (provider) => {
        const r = await provider.keywordResearch({
          keyword,
          locationCode,
          upstreamLanguage: language.upstream,
          limit,
        });
        return {
          keyword: r.keyword,
          location_code: locationCode,
          language_code: language.code,
          total_count: r.total_count,
          overview: r.overview,
          related_keywords: r.related_keywords,
        };
      },
    });
    return withMeta(out.data, {
      cached: out.cached,
      provider: out.provider,
      charged: out.charged,
      warnings: languageWarnings(body.language_code, language.code),
    });
  }

  /** One unit of the monthly keyword-research quota; used up → 429 QUOTA_EXCEEDED, never credits. */
  private async reserve(auth: AuthContext, requestId: string): Promise<Reservation> {
    const now = this.clock.now();
    const limit = auth.limits.keyword_research_per_month;
    const r = await this.reservations.reserveQuota(
      auth.accountId,
      'keyword_research',
      'keyword_research',
      limit,
      requestId,
      now,
      this.clock.statementTime(),
    );
    if (r.reservation) return r.reservation;
    const resetsAt = monthAfter(r.periodStart);
    throw new ApiError(
      'QUOTA_EXCEEDED',
      `The monthly keyword-research quota of ${limit} lookups is used up. It resets on ${resetsAt}. Cached lookups stay free.`,
      { meta: { resets_at: resetsAt, limit } },
    );
  }
}

/** The market of `locationCode`, or 400 UNSUPPORTED_LOCATION. */
function marketOf(locationCode: number) {
  const market = findMarket(locationCode);
  if (!market) {
    const message = `location_code ${locationCode} is not a supported market. See GET /api/v1/keyword-research/locations.`;
    throw new ApiError('UNSUPPORTED_LOCATION', message, {
      details: [{ field: 'location_code', message }],
    });
  }
  return market;
}
