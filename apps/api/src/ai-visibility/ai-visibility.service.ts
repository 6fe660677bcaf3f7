import { Injectable } from '@nestjs/common';
import { ApiError } from '@app/core';
import { ScanDto } from './ai-visibility-ingestion.dto';
import { AiVisibilityIngestionRepository, ScanResult } from '@app/database';

/** The rules of AI-visibility ingestion beyond field validation. */
@Injectable()
export class AiVisibilityService {
  constructor(private readonly ingestion: AiVisibilityIngestionRepository) {}

  /**
   * Stores a scan of a project. A competitor_domain may appear once per scan (422 naming the
   * repeated entry); an unknown project is a 404.
   */
  async storeScan(projectId: number, scan: ScanDto, now: Date): Promise<ScanResult> {
    const domains = new Set<string>();
    scan.competitors.forEach((c, i) => {
      if (domains.has(c.competitor_domain)) {
        throw ApiError.validation(
          `competitors.${i}.competitor_domain`,
          `competitor_domain ${c.competitor_domain} appears more than once in this scan`,
        );
      }
      domains.add(c.competitor_domain);
    });
    const result = await this.ingestion.storeScan(projectId, scan, now);
    if (!result) throw ApiError.notFound('AI-visibility project');
    return result;
  }
}
