import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ApiError, Clock } from '@app/core';
import { AccountEntity, UserEntity } from '@app/database';
import { AccountsRepository } from './accounts.repository';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  hashPassword,
  isAcceptablePassword,
  needsRehash,
  verifyPassword,
} from './password-hasher';
import { SessionsService } from './sessions.service';
import { SignInThrottle } from './sign-in-throttle';
import { UsersRepository } from './users.repository';

/** What a successful sign-in answers: the token goes to the cookie and nowhere else. */
interface SignedIn {
  user: UserEntity;
  account: AccountEntity;
  token: string;
  sessionId: number;
}

const INVALID_CREDENTIALS = 'Invalid email or password.';
const PASSWORD_RULE = `must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`;

/**
 * The people of an account: creation by operators, removal (their sessions end at once),
 * sign-in (throttled per email and per IP, the same 401 for an unknown email and a wrong
 * password) and password change (every other session ends).
 */
@Injectable()
export class UsersService implements OnModuleInit {
  private readonly logger = new Logger(UsersService.name);
  /** Verified against when the email is unknown, so both failures take the same time. */
  private dummyHash: Promise<string> | null = null;

  constructor(
    private readonly users: UsersRepository,
    private readonly accounts: AccountsRepository,
    private readonly sessions: SessionsService,
    private readonly throttle: SignInThrottle,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    void this.dummy();
  }

  /**
   * A new user of an account. 404 when the account does not exist; 422 when the email is in
   * use (in any case) or the password is not 12-256 characters.
   */
  async create(accountId: number, email: string, password: string): Promise<UserEntity> {
    const trimmed = email.trim();
    if (!isAcceptablePassword(password)) {
      throw ApiError.validation('password', `password ${PASSWORD_RULE}`);
    }
    if (!(await this.accounts.find(accountId))) throw ApiError.notFound('Account');
    const user = await this.users.create(accountId, trimmed, await hashPassword(password));
    if (!user) throw ApiError.validation('email', 'email is already in use');
    return user;
  }

  list(accountId: number): Promise<UserEntity[]> {
    return this.users.listByAccount(accountId);
  }

  findById(id: number): Promise<UserEntity | null> {
    return this.users.findById(id);
  }

  /** Removes a user; their sessions end with them (same statement, by cascade). Null when unknown. */
  async remove(userId: number): Promise<UserEntity | null> {
    return (await this.users.remove(userId)) ?? null;
  }

  /**
   * Signs a person in and starts a session. The throttle is checked (and the attempt
   * counted) before the password is: 429 RATE_LIMITED while the email or the client IP is at
   * its failure limit, even with the right password. Unknown email and wrong password both
   * answer the same 401 after the same scrypt work.
   */
  async signIn(email: string, password: string, ip: string): Promise<SignedIn> {
    const normalized = email.trim().toLowerCase();
    const verdict = await this.throttle.reserve(normalized, ip);
    if (!verdict.allowed) throw tooManyAttempts(verdict.retryAfterSeconds);

    const user = await this.users.findByEmail(normalized);
    const matches = await verifyPassword(password, user?.passwordHash ?? (await this.dummy()));
    if (!user || !matches) throw new ApiError('UNAUTHORIZED', INVALID_CREDENTIALS);

    await this.throttle.release(normalized, ip);
    const account = await this.accounts.find(user.accountId);
    if (!account) throw new ApiError('UNAUTHORIZED', INVALID_CREDENTIALS);
    const { token, sessionId } = await this.sessions.start(user.id, user.accountId);
    const now = this.clock.now();
    await this.users.recordSignIn(user.id, now);
    user.lastSignInAt = now;
    if (needsRehash(user.passwordHash)) {
      await this.users.rehash(user.id, await hashPassword(password));
    }
    return { user, account, token, sessionId };
  }

  /**
   * Changes a signed-in user's password and ends every other session of theirs (the current
   * one, `sessionId`, stays). A wrong current password is 422 and counts as a failed
   * sign-in for the throttle (so a left-open session cannot be used to guess it).
   */
  async changePassword(
    userId: number,
    sessionId: number,
    current: string,
    next: string,
  ): Promise<void> {
    const user = await this.users.findById(userId);
    if (!user) throw new ApiError('UNAUTHORIZED', 'The session has ended. Sign in again.');
    const key = user.email.toLowerCase();
    // The throttle is keyed by email only here (the IP counter is for sign-in guessing).
    const verdict = await this.throttle.reserve(key, `user:${userId}`);
    if (!verdict.allowed) throw tooManyAttempts(verdict.retryAfterSeconds);
    if (!(await verifyPassword(current, user.passwordHash))) {
      throw ApiError.validation('current_password', 'current_password is not correct');
    }
    await this.throttle.release(key, `user:${userId}`);
    if (!isAcceptablePassword(next)) {
      throw ApiError.validation('new_password', `new_password ${PASSWORD_RULE}`);
    }
    const changed = await this.users.changePassword(
      userId,
      await hashPassword(next),
      this.clock.now(),
      sessionId,
    );
    if (!changed) throw new ApiError('UNAUTHORIZED', 'The session has ended. Sign in again.');
    this.logger.log({ user_id: userId }, 'Password changed; other sessions ended');
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= hashPassword(`dummy ${Math.random()} password`);
    return this.dummyHash;
  }
}

function tooManyAttempts(retryAfter: number): ApiError {
  return new ApiError(
    'RATE_LIMITED',
    `Too many failed sign-in attempts. Try again in ${retryAfter} seconds.`,
    { meta: { retry_after: retryAfter }, headers: { 'Retry-After': retryAfter } },
  );
}
