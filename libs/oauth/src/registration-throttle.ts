import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import * as ipaddr from 'ipaddr.js';
import { APP_CONFIG, AppConfig, Clock } from '@app/core';
import { REDIS, RedisKeys } from '@app/redis';

/**
 * One round trip: the address's counter first; only a registration the address may make
 * counts on the overall counter, so one address cannot use up everyone's hour by itself.
 * Returns 0 (allowed), 1 (the address is at its limit) or 2 (the overall limit is reached).
 */
const TAKE = `
local a = redis.call('INCR', KEYS[1])
if a == 1 then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
if a > tonumber(ARGV[1]) then return 1 end
local g = redis.call('INCR', KEYS[2])
if g == 1 then redis.call('EXPIRE', KEYS[2], ARGV[3]) end
if g > tonumber(ARGV[2]) then return 2 end
return 0`;

type ThrottleRedis = Redis & {
  seoOAuthRegister(
    addressKey: string,
    overallKey: string,
    perAddress: number,
    overall: number,
    ttlSeconds: number,
  ): Promise<number>;
};

/** Why a registration was refused, and how long until the hour ends. */
interface RegistrationRefusal {
  scope: 'address' | 'overall';
  retryAfterSeconds: number;
}

/**
 * The limits of RFC 7591 registrations, in Redis (shared by every instance), per clock hour
 * (the injected Clock's): OAUTH_REGISTRATIONS_PER_ADDRESS per client address — an IPv4
 * address, or the /64 of an IPv6 address (one host usually holds a whole /64 and can rotate
 * through it) — and OAUTH_REGISTRATIONS_PER_HOUR over all addresses.
 */
@Injectable()
export class RegistrationThrottle {
  private readonly redis: ThrottleRedis;

  constructor(
    @Inject(REDIS) redis: Redis,
    private readonly keys: RedisKeys,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    if (!('seoOAuthRegister' in redis)) {
      redis.defineCommand('seoOAuthRegister', { numberOfKeys: 2, lua: TAKE });
    }
    this.redis = redis as ThrottleRedis;
  }

  /** Counts one registration from `ip`; the refusal when a limit is reached, else null. */
  async take(ip: string): Promise<RegistrationRefusal | null> {
    const nowMs = this.clock.now().getTime();
    const hour = Math.floor(nowMs / 3_600_000);
    const { perAddress, perHour } = this.config.oauthRegistrations;
    const verdict = await this.redis.seoOAuthRegister(
      this.keys.of('oauth-register', registrationAddress(ip), hour),
      this.keys.of('oauth-register', '*', hour),
      perAddress,
      perHour,
      3700,
    );
    if (verdict === 0) return null;
    return {
      scope: verdict === 1 ? 'address' : 'overall',
      retryAfterSeconds: Math.max(1, Math.ceil(((hour + 1) * 3_600_000 - nowMs) / 1000)),
    };
  }
}

/**
 * The unit a registration limit counts: an IPv4 address (also when written IPv4-mapped,
 * `::ffff:a.b.c.d`), or the /64 network of an IPv6 address.
 */
function registrationAddress(ip: string): string {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(ip);
  } catch {
    return `raw:${ip.slice(0, 64) || 'unknown'}`;
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
    return `${v6.parts
      .slice(0, 4)
      .map((p) => p.toString(16))
      .join(':')}::/64`;
  }
  return parsed.toString();
}
