import { Injectable } from '@nestjs/common';
import { ApiError, Clock, WithMeta, withMeta } from '@app/core';
import { Reservation, ReservationsRepository } from '@app/billing';
import { PLANS } from '@app/plans';
import type { AuthContext } from '@app/accounts';
import { BacklinkProfile } from '@app/providers';
import { ResearchRunner } from '../research/research-runner.service';
import { normalizeDomain } from './normalize-domain';
import { BacklinksQueryDto, MAX_OFFSET } from './backlinks.dto';

/** A request with page > 1 or limit > 100 always costs a credit (never feature quota). */
export function needsCredit(page: number, limit: number): boolean {
  return page > 1 || limit > 100;
}

const BACKLINK_CREDIT_COST = 1;

@Injectable()
export class BacklinksService {
  constructor(
    private readonly runner: ResearchRunner,
    private readonly reservations: ReservationsRepository,
    private readonly clock: Clock,
  ) {}

  async profile(
    auth: AuthContext,
    requestId: string,
    q: BacklinksQueryDto,
  ): Promise<WithMeta<BacklinkProfile>> {
    const domain = normalizeDomain(q.domain);
    if (!domain) {
      throw ApiError.validation(
        'domain',
        'domain must be a registered domain name such as example.com (a full URL is accepted); IP addresses, localhost and single-label names are not.',
      );
    }
    const { page, limit } = q;
    if ((page - 1) * limit > MAX_OFFSET) {
      throw ApiError.validation(
        'page',
        `page is too high: (page - 1) * limit may be at most ${MAX_OFFSET}.`,
      );
    }
    const creditOnly = needsCredit(page, limit);
    const out = await this.runner.run<BacklinkProfile>({
      accountId: auth.accountId,
      kind: 'backlinks',
      requestKey: `${domain}|${page}|${limit}`,
      ttlSeconds: PLANS[auth.plan].backlinksCacheTtlSeconds,
      reserve: () => this.reserve(auth, requestId, domain, page, limit, creditOnly),
      fetch: (provider) => provider.backlinkProfile({ domain, page, limit }),
    });
    return withMeta(out.data, { cached: out.cached, provider: out.provider, charged: out.charged });
  }

  /** Feature quota first (unless the request is credit-only), then one credit, else 402. */
  private async reserve(
    auth: AuthContext,
    requestId: string,
    domain: string,
    page: number,
    limit: number,
    creditOnly: boolean,
  ): Promise<Reservation> {
    const now = this.clock.now();
    if (!creditOnly) {
      const quota = await this.reservations.reserveQuota(
        auth.accountId,
        'backlinks',
        'backlinks',
        auth.limits.backlinks_per_month,
        requestId,
        now,
        this.clock.statementTime(),
      );
      if (quota.reservation) return quota.reservation;
    }
    const reason = `backlinks: ${domain} page ${page} limit ${limit}`;
    const credit = await this.reservations.reserveCredit(
      auth.accountId,
      'backlinks',
      BACKLINK_CREDIT_COST,
      reason,
      requestId,
      now,
    );
    if (credit) return credit;
    throw new ApiError(
      'PAYMENT_REQUIRED',
      creditOnly
        ? 'A /backlinks request with page > 1 or limit > 100 costs 1 credit, and no credits remain.'
        : 'The monthly backlinks quota is used up and no credits remain. Add credits to continue.',
      { meta: { credits_required: BACKLINK_CREDIT_COST } },
    );
  }
}
