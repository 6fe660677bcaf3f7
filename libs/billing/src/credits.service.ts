import { Injectable } from '@nestjs/common';
import { metrics } from '@app/core';
import { CreditsRepository } from './credits.repository';

type CreditChange =
  { ok: true; balance: number } | { ok: false; reason: 'insufficient' | 'no_account' };

/**
 * Credits: the balance on the account row and an append-only ledger, changed together by
 * one statement (CreditsRepository) so they can never disagree and the balance can never
 * go below zero.
 */
@Injectable()
export class CreditsService {
  constructor(private readonly credits: CreditsRepository) {}

  async change(
    accountId: number,
    delta: number,
    reason: string,
    requestId: string | null,
  ): Promise<CreditChange> {
    if (!Number.isInteger(delta) || delta === 0)
      throw new Error('credit delta must be a non-zero integer');
    const balance = await this.credits.change(accountId, delta, reason, requestId);
    if (balance !== null) {
      metrics.creditOperations.inc({ kind: 'credit', operation: delta > 0 ? 'grant' : 'commit' });
      return { ok: true, balance };
    }
    metrics.creditOperations.inc({ kind: 'credit', operation: 'refused' });
    const exists = await this.credits.accountExists(accountId);
    return { ok: false, reason: exists ? 'insufficient' : 'no_account' };
  }

  /** Spends credits; false when the balance is too low (nothing is written then). */
  async spend(
    accountId: number,
    amount: number,
    reason: string,
    requestId: string | null,
  ): Promise<boolean> {
    return (await this.change(accountId, -amount, reason, requestId)).ok;
  }

  /** Gives spent credits back as a new ledger row. */
  async refund(
    accountId: number,
    amount: number,
    reason: string,
    requestId: string | null,
  ): Promise<void> {
    await this.change(accountId, amount, reason, requestId);
  }

  async balance(accountId: number): Promise<number | null> {
    return this.credits.balance(accountId);
  }
}
