import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, ValidationArguments, registerDecorator } from 'class-validator';
import { BodyInt, Required, Rules, Text, Trim } from '@app/gateway';
import { IsWebhookUrl, MAX_WEBHOOK_URL_LENGTH } from '@app/webhooks';

const MAX_URL_LENGTH = 2048;

/** Why a URL cannot be crawled, or null when it is an absolute http(s) URL without credentials. */
export function crawlableUrlProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0) return 'url must be a non-empty string';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'url must be an absolute URL, e.g. https://example.com/';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return 'url must start with http:// or https://';
  if (!/^https?:\/\//i.test(value)) return 'url must start with http:// or https://';
  if (url.username || url.password) return 'url must not contain a user name or password';
  if (!url.hostname) return 'url must have a host name';
  return null;
}

function IsCrawlableUrl(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isCrawlableUrl',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => crawlableUrlProblem(value) === null,
        defaultMessage: (args?: ValidationArguments) =>
          crawlableUrlProblem(args?.value) ?? 'url is invalid',
      },
    });
}

export class SiteAuditRequestDto {
  @ApiProperty({
    description:
      'Absolute http(s) URL to start crawling from (no credentials; must resolve to public addresses)',
    maxLength: MAX_URL_LENGTH,
    example: 'https://example.com/',
  })
  @Rules(Trim(), Required(), IsString(), MaxLength(MAX_URL_LENGTH), IsCrawlableUrl())
  url!: string;

  @BodyInt(1, 5, {
    optional: true,
    api: { description: 'Link depth to follow from the start page', default: 3 },
  })
  depth?: number;

  @BodyInt(1, undefined, {
    optional: true,
    api: {
      description:
        "Most pages to crawl; capped by the plan's per-crawl limit and the remaining rolling 30-day page budget " +
        '(the applied value is in meta.max_pages)',
      default: 100,
    },
  })
  max_pages?: number;

  @Rules(
    Text(MAX_WEBHOOK_URL_LENGTH, {
      optional: true,
      api: {
        description:
          'https URL that receives the signed site_audit.completed / site_audit.failed webhook when the job ' +
          'ends (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature headers). Must resolve to ' +
          'public addresses. Deliveries cost nothing and are retried for about 28 hours.',
        example: 'https://example.com/hooks/seo-api',
      },
    }),
    IsWebhookUrl(),
  )
  webhook_url?: string;
}
