import { Injectable } from '@nestjs/common';
import { ApiError } from '@app/core';
import { BarChart, barChart } from '../pages/bar-chart';
import { AiProjectsRepository, LatestAnswerRow, ScoreRow } from './ai-projects.repository';
import { AiVisibilityRepository } from './ai-visibility.repository';
import { projectView } from './ai-visibility.mapper';

/** The scans the console's chart shows (the newest). */
export const CHART_SCANS = 60;

/** The console's chart of a project's visibility_score per stored scan (0-100). */
export type ScoreChart = BarChart<'visibility'>;

/**
 * What the console reads of the account's AI-visibility projects (/account/v1/ai-visibility,
 * docs/ai-visibility-management.md): the list, each project's scores over its stored scans
 * with the chart drawn by the server (pages/bar-chart.ts, as the usage chart), and the latest
 * answer to each prompt with what to highlight in it. Another account's project is 404.
 */
@Injectable()
export class AiVisibilityReadsService {
  constructor(
    private readonly projectsRepo: AiProjectsRepository,
    private readonly repo: AiVisibilityRepository,
  ) {}

  /** data of GET /ai-visibility/projects (the API key's and the session's). */
  async projects(accountId: number) {
    const projects = (await this.repo.listProjects(accountId)).map(projectView);
    return { projects, count: projects.length };
  }

  /** `{project_id, scores: [oldest first], chart}`. */
  async scores(
    accountId: number,
    projectId: number,
  ): Promise<{ project_id: number; scores: ScoreRow[]; chart: ScoreChart }> {
    const project = await this.projectsRepo.project(accountId, projectId);
    if (!project) throw ApiError.notFound('Project');
    const scores = await this.projectsRepo.scores(accountId, projectId, CHART_SCANS);
    return { project_id: projectId, scores, chart: scoreChart(project.brandName, scores) };
  }

  /**
   * Each current prompt with its latest answer, and the names to highlight: the brand (its
   * name, aliases, domain) and each competitor (name, domain).
   */
  async answers(accountId: number, projectId: number) {
    const project = await this.projectsRepo.project(accountId, projectId);
    if (!project) throw ApiError.notFound('Project');
    const answers: LatestAnswerRow[] = await this.projectsRepo.latestAnswers(accountId, projectId);
    return {
      project_id: projectId,
      ai_engine: project.aiEngine,
      brand: {
        name: project.brandName,
        aliases: project.brandAliases,
        domain: project.domain,
      },
      competitors: project.competitors.map((c) => ({ name: c.name, domain: c.domain })),
      answers,
    };
  }
}

const fixed = (n: number): string => (Math.round(n * 10) / 10).toFixed(1);

/** One bar per stored scan: its visibility_score, the other figures in its tooltip. */
export function scoreChart(brand: string, scores: ScoreRow[]): ScoreChart {
  return barChart(
    scores.map((s) => ({
      date: s.snapshot_date,
      title:
        `${s.snapshot_date}: visibility ${fixed(s.visibility_score)}, GEO ${fixed(s.geo_score)}, ` +
        `competition ${fixed(s.competition_score)}, mentioned in ${fixed(s.mention_rate)}% and ` +
        `cited in ${fixed(s.citation_rate)}% of answers`,
      parts: [['visibility', s.visibility_score]] as const,
    })),
    {
      top: 100,
      summary:
        scores.length > 0
          ? `Visibility score of ${brand} per scan from ${scores[0].snapshot_date} to ` +
            `${scores[scores.length - 1].snapshot_date}, latest ${fixed(scores[scores.length - 1].visibility_score)} of 100.`
          : 'No scans stored yet.',
    },
  );
}
