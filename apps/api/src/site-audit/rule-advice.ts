import { RULES, type RuleId } from '@app/crawler';

/** One line per audit rule: what to do about it (shown in the report under the rule). */
const RULE_FIXES: Readonly<Record<RuleId, string>> = {
  http_5xx: 'Check the server logs for these URLs and fix the error, or remove links to them.',
  http_4xx: 'Restore the page, redirect it (301) to its replacement, or remove the links to it.',
  fetch_failed:
    'Make sure the host answers in time from the public internet (DNS, firewall, TLS, server load).',
  broken_internal_link: 'Point the link at a working URL, or remove it.',
  redirect_loop: 'Make the redirects end at a page that answers 200.',
  redirect_limit: 'Redirect straight to the final URL, in one hop.',
  missing_title: 'Give each page a unique, descriptive <title>.',
  robots_txt_unreachable:
    'Serve /robots.txt with a 200 (or a 404 when there are no rules); 5xx answers block crawling.',
  redirect_chain: 'Link and redirect straight to the final URL instead of through several hops.',
  duplicate_title: 'Write a title that says what sets each page apart.',
  title_too_long: 'Keep titles under 60 characters so search results show them whole.',
  missing_meta_description: 'Add a meta description of about 150 characters that sums up the page.',
  duplicate_meta_description: 'Write a description specific to each page.',
  missing_h1: 'Add one <h1> that names the page’s topic.',
  images_missing_alt: 'Add alt text describing each image (alt="" for purely decorative ones).',
  mixed_content: 'Load every script, image and stylesheet over https://.',
  slow_response: 'Speed up the server response (caching, database queries, a CDN).',
  large_page: 'Reduce the HTML size: inline data, repeated markup, embedded scripts and styles.',
  missing_lang: 'Add a lang attribute to <html>, e.g. <html lang="en">.',
  missing_viewport:
    'Add <meta name="viewport" content="width=device-width, initial-scale=1"> for phones.',
  thin_content: 'Add useful content, or merge the page into a related one (or mark it noindex).',
  invalid_structured_data:
    'Fix the JSON-LD so it parses (test it with a structured-data validator).',
  broken_resource:
    'Upload the missing file or fix its address in the page (src, srcset or href); remove the reference if it is no longer used.',
  multiple_h1: 'Keep one <h1> per page; use <h2> and below for sections.',
  noindex: 'Remove the noindex directive if the page should appear in search results.',
  missing_canonical: 'Add <link rel="canonical"> pointing at the preferred URL of the page.',
  blocked_by_robots: 'Allow the URL in robots.txt if it should be crawled and indexed.',
  crawl_trap:
    'Stop endless URL variations (calendars, filters, session ids) with robots.txt or canonicals.',
};

/** A rule's readable name (the audit's titles); an unknown rule id stays as it is. */
export function ruleTitle(rule: string): string {
  return (RULES as Record<string, { title: string }>)[rule]?.title ?? rule;
}

/** A rule's fix hint, or null for an unknown rule id. */
export function ruleFix(rule: string): string | null {
  return (RULE_FIXES as Record<string, string>)[rule] ?? null;
}

/** The GEO checks' readable names and what to do when one fails (ids as in geo_checks). */
const GEO_CHECK_ADVICE: Readonly<Record<string, { title: string; fix: string }>> = {
  ai_crawlers_allowed: {
    title: 'AI crawlers allowed',
    fix: 'Allow GPTBot, ClaudeBot, PerplexityBot and Google-Extended in robots.txt if answer engines should read the site.',
  },
  llms_txt: {
    title: 'llms.txt present',
    fix: 'Publish /llms.txt: a short Markdown summary of the site with links to its key pages.',
  },
  structured_data: {
    title: 'Structured data',
    fix: 'Describe pages with JSON-LD (Organization, Product, Article, FAQPage) so machines read their facts.',
  },
  heading_structure: {
    title: 'Heading structure',
    fix: 'Give each page one <h1> and nest sections in order (h2, then h3) without skipping levels.',
  },
  question_headings_or_faq: {
    title: 'Questions and FAQ',
    fix: 'Phrase some headings as the questions people ask, or add an FAQ section with FAQPage markup.',
  },
  author_and_date: {
    title: 'Author and date',
    fix: 'Show who wrote each article and when (and mark it up: author, datePublished, dateModified).',
  },
  meta_descriptions: {
    title: 'Meta descriptions',
    fix: 'Add a meta description of about 150 characters that sums up each page.',
  },
  content_depth: {
    title: 'Content depth',
    fix: 'Expand thin pages with substantive, original content that fully answers their topic.',
  },
};

/** A GEO check's readable name; an unknown id is made readable from its words. */
export function geoCheckTitle(check: string): string {
  const known = GEO_CHECK_ADVICE[check]?.title;
  if (known) return known;
  const words = check.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A GEO check's fix hint, or null for an unknown id. */
export function geoCheckFix(check: string): string | null {
  return GEO_CHECK_ADVICE[check]?.fix ?? null;
}
