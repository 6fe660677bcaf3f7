import { Injectable } from '@nestjs/common';
import { Sql, UserEntity } from '@app/database';

/** A user row as statements here return it (entity property names). */
const USER_COLUMNS = `id, account_id AS "accountId", email, password_hash AS "passwordHash",
  created_at AS "createdAt", last_sign_in_at AS "lastSignInAt",
  password_changed_at AS "passwordChangedAt"`;

/** The statements of users: TypeORM for plain reads, raw SQL where the email index decides. */
@Injectable()
export class UsersRepository {
  constructor(private readonly sql: Sql) {}

  private get users() {
    return this.sql.repository(UserEntity);
  }

  /**
   * A new user; undefined when the email is already in use in any case (the unique index
   * on lower(email) decides, so concurrent creations cannot both succeed).
   */
  async create(
    accountId: number,
    email: string,
    passwordHash: string,
  ): Promise<UserEntity | undefined> {
    const row = await this.sql.one<UserEntity>(
      `INSERT INTO users (account_id, email, password_hash)
       VALUES ($1, $2, $3)
       ON CONFLICT ((lower(email))) DO NOTHING
       RETURNING ${USER_COLUMNS}`,
      [accountId, email, passwordHash],
    );
    return row ? this.users.create(row) : undefined;
  }

  /** The account's users in id order. */
  listByAccount(accountId: number): Promise<UserEntity[]> {
    return this.users.find({ where: { accountId }, order: { id: 'ASC' } });
  }

  findById(id: number): Promise<UserEntity | null> {
    return this.users.findOneBy({ id });
  }

  /** The user with this email, compared case-insensitively (through the lower(email) index). */
  async findByEmail(email: string): Promise<UserEntity | undefined> {
    const row = await this.sql.one<UserEntity>(
      `SELECT ${USER_COLUMNS} FROM users WHERE lower(email) = lower($1)`,
      [email],
    );
    return row ? this.users.create(row) : undefined;
  }

  /** Removes a user (its sessions go with it: ON DELETE CASCADE); the removed row or undefined. */
  async remove(id: number): Promise<UserEntity | undefined> {
    const row = await this.sql.one<UserEntity>(
      `DELETE FROM users WHERE id = $1 RETURNING ${USER_COLUMNS}`,
      [id],
    );
    return row ? this.users.create(row) : undefined;
  }

  async recordSignIn(id: number, at: Date): Promise<void> {
    await this.sql.run(`UPDATE users SET last_sign_in_at = $2 WHERE id = $1`, [id, at]);
  }

  /** Replaces a stored hash with a stronger one of the same password (no other change). */
  async rehash(id: number, passwordHash: string): Promise<void> {
    await this.sql.run(`UPDATE users SET password_hash = $2 WHERE id = $1`, [id, passwordHash]);
  }

  /**
   * Sets a new password and ends every other session of the user, in one transaction: no
   * other session outlives the change. False when the user no longer exists.
   */
  changePassword(
    id: number,
    passwordHash: string,
    at: Date,
    keepSessionId: number | null,
  ): Promise<boolean> {
    return this.sql.transaction(async (tx) => {
      const updated = await tx.rows<{ id: number }>(
        `UPDATE users SET password_hash = $2, password_changed_at = $3 WHERE id = $1 RETURNING id`,
        [id, passwordHash, at],
      );
      if (updated.length === 0) return false;
      await tx.run(`DELETE FROM sessions WHERE user_id = $1 AND id IS DISTINCT FROM $2`, [
        id,
        keepSessionId,
      ]);
      return true;
    });
  }
}
