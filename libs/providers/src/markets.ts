/**
 * The markets POST /keyword-research accepts and GET /keyword-research/locations lists:
 * the 94 countries DataForSEO Labs (Google) supports, location_code = 2000 + ISO 3166-1
 * numeric. `languages` are the upstream language codes the market offers, first = primary.
 * One table, shared by validation and the locations endpoint.
 */
export const SUPPORTED_LANGUAGES = [
  'en',
  'es',
  'fr',
  'de',
  'it',
  'pt',
  'nl',
  'ru',
  'ja',
  'zh',
] as const;
type SupportedLanguage = (typeof SUPPORTED_LANGUAGES)[number];

export interface Market {
  location_code: number;
  location_name: string;
  country_iso: string;
  /** Upstream language codes offered in this market, primary first. */
  languages: readonly string[];
}

const M = (
  country_iso: string,
  location_code: number,
  location_name: string,
  languages: string,
): Market => ({
  location_code,
  location_name,
  country_iso,
  languages: languages.split('/'),
});

export const MARKETS: readonly Market[] = [
  M('AE', 2784, 'United Arab Emirates', 'ar/en'),
  M('AL', 2008, 'Albania', 'sq'),
  M('AM', 2051, 'Armenia', 'hy'),
  M('AO', 2024, 'Angola', 'pt'),
  M('AR', 2032, 'Argentina', 'es'),
  M('AT', 2040, 'Austria', 'de'),
  M('AU', 2036, 'Australia', 'en'),
  M('AZ', 2031, 'Azerbaijan', 'az'),
  M('BA', 2070, 'Bosnia and Herzegovina', 'bs'),
  M('BD', 2050, 'Bangladesh', 'bn'),
  M('BE', 2056, 'Belgium', 'nl/fr/de'),
  M('BF', 2854, 'Burkina Faso', 'fr'),
  M('BG', 2100, 'Bulgaria', 'bg'),
  M('BH', 2048, 'Bahrain', 'ar'),
  M('BO', 2068, 'Bolivia', 'es'),
  M('BR', 2076, 'Brazil', 'pt'),
  M('CA', 2124, 'Canada', 'en/fr'),
  M('CH', 2756, 'Switzerland', 'fr/de/it'),
  M('CI', 2384, "Cote d'Ivoire", 'fr'),
  M('CL', 2152, 'Chile', 'es'),
  M('CM', 2120, 'Cameroon', 'fr'),
  M('CO', 2170, 'Colombia', 'es'),
  M('CR', 2188, 'Costa Rica', 'es'),
  M('CY', 2196, 'Cyprus', 'en/el'),
  M('CZ', 2203, 'Czechia', 'cs'),
  M('DE', 2276, 'Germany', 'de'),
  M('DK', 2208, 'Denmark', 'da'),
  M('DZ', 2012, 'Algeria', 'ar/fr'),
  M('EC', 2218, 'Ecuador', 'es'),
  M('EE', 2233, 'Estonia', 'et'),
  M('EG', 2818, 'Egypt', 'ar/en'),
  M('ES', 2724, 'Spain', 'es'),
  M('FI', 2246, 'Finland', 'fi'),
  M('FR', 2250, 'France', 'fr'),
  M('GB', 2826, 'United Kingdom', 'en'),
  M('GH', 2288, 'Ghana', 'en'),
  M('GR', 2300, 'Greece', 'en/el'),
  M('GT', 2320, 'Guatemala', 'es'),
  M('HK', 2344, 'Hong Kong', 'zh-TW/en'),
  M('HR', 2191, 'Croatia', 'hr'),
  M('HU', 2348, 'Hungary', 'hu'),
  M('ID', 2360, 'Indonesia', 'en/id'),
  M('IE', 2372, 'Ireland', 'en'),
  M('IL', 2376, 'Israel', 'ar/he'),
  M('IN', 2356, 'India', 'en/hi'),
  M('IT', 2380, 'Italy', 'it'),
  M('JO', 2400, 'Jordan', 'ar'),
  M('JP', 2392, 'Japan', 'ja'),
  M('KE', 2404, 'Kenya', 'en'),
  M('KH', 2116, 'Cambodia', 'en'),
  M('KR', 2410, 'South Korea', 'ko'),
  M('KZ', 2398, 'Kazakhstan', 'ru'),
  M('LK', 2144, 'Sri Lanka', 'en'),
  M('LT', 2440, 'Lithuania', 'lt'),
  M('LV', 2428, 'Latvia', 'lv'),
  M('MA', 2504, 'Morocco', 'ar/fr'),
  M('MC', 2492, 'Monaco', 'fr'),
  M('MD', 2498, 'Moldova', 'ro'),
  M('MK', 2807, 'North Macedonia', 'mk'),
  M('MM', 2104, 'Myanmar (Burma)', 'en'),
  M('MT', 2470, 'Malta', 'en'),
  M('MX', 2484, 'Mexico', 'es'),
  M('MY', 2458, 'Malaysia', 'en/ms'),
  M('NG', 2566, 'Nigeria', 'en'),
  M('NI', 2558, 'Nicaragua', 'es'),
  M('NL', 2528, 'Netherlands', 'nl'),
  M('NO', 2578, 'Norway', 'nb'),
  M('NZ', 2554, 'New Zealand', 'en'),
  M('PA', 2591, 'Panama', 'es'),
  M('PE', 2604, 'Peru', 'es'),
  M('PH', 2608, 'Philippines', 'en/tl'),
  M('PK', 2586, 'Pakistan', 'en/ur'),
  M('PL', 2616, 'Poland', 'pl'),
  M('PT', 2620, 'Portugal', 'pt'),
  M('PY', 2600, 'Paraguay', 'es'),
  M('RO', 2642, 'Romania', 'ro'),
  M('RS', 2688, 'Serbia', 'sr'),
  M('SA', 2682, 'Saudi Arabia', 'ar'),
  M('SE', 2752, 'Sweden', 'sv'),
  M('SG', 2702, 'Singapore', 'zh-CN/en'),
  M('SI', 2705, 'Slovenia', 'sl'),
  M('SK', 2703, 'Slovakia', 'sk'),
  M('SN', 2686, 'Senegal', 'fr'),
  M('SV', 2222, 'El Salvador', 'es'),
  M('TH', 2764, 'Thailand', 'th'),
  M('TN', 2788, 'Tunisia', 'ar'),
  M('TR', 2792, 'Turkey', 'tr'),
  M('TW', 2158, 'Taiwan', 'zh-TW'),
  M('UA', 2804, 'Ukraine', 'ru/uk'),
  M('US', 2840, 'United States', 'en/es'),
  M('UY', 2858, 'Uruguay', 'es'),
  M('VE', 2862, 'Venezuela', 'es'),
  M('VN', 2704, 'Vietnam', 'en/vi'),
  M('ZA', 2710, 'South Africa', 'en'),
];

const BY_CODE = new Map(MARKETS.map((m) => [m.location_code, m]));

export const DEFAULT_LOCATION_CODE = 2840;
const DEFAULT_LANGUAGE: SupportedLanguage = 'en';

export function findMarket(locationCode: number): Market | undefined {
  return BY_CODE.get(locationCode);
}

/** Our code of an upstream language code: zh-TW / zh-CN count as zh; null when not one of ours. */
function ourLanguage(upstream: string): SupportedLanguage | null {
  const base = upstream.toLowerCase().split('-')[0];
  return (SUPPORTED_LANGUAGES as readonly string[]).includes(base)
    ? (base as SupportedLanguage)
    : null;
}

/** A request's language_code: one of ours (case-insensitive, region suffix ignored), else en. */
export function requestLanguage(value: string | undefined | null): SupportedLanguage {
  if (typeof value !== 'string') return DEFAULT_LANGUAGE;
  const base = value.trim().toLowerCase().split(/[-_]/)[0];
  return (SUPPORTED_LANGUAGES as readonly string[]).includes(base)
    ? (base as SupportedLanguage)
    : DEFAULT_LANGUAGE;
}

/** The language a location record shows: the market's primary language when it is one of ours, else en. */
function marketLanguage(m: Market): SupportedLanguage {
  return ourLanguage(m.languages[0]) ?? DEFAULT_LANGUAGE;
}

interface AppliedLanguage {
  /** What data.language_code echoes. */
  code: string;
  /** What is sent upstream. */
  upstream: string;
}

/**
 * The language actually used for a market: the requested one when the market offers it;
 * else the market's listed language (its record's language_code) when offered; else the
 * market's primary upstream language (e.g. sq for Albania), echoed as is.
 */
export function applyLanguage(m: Market, requested: SupportedLanguage): AppliedLanguage {
  const offered = (lang: SupportedLanguage) => m.languages.find((u) => ourLanguage(u) === lang);
  const direct = offered(requested);
  if (direct) return { code: requested, upstream: direct };
  const listed = marketLanguage(m);
  const fallback = offered(listed);
  if (fallback) return { code: listed, upstream: fallback };
  return { code: m.languages[0], upstream: m.languages[0] };
}

/** A location record of GET /keyword-research/locations. */
export function locationRecord(m: Market) {
  return {
    location_code: m.location_code,
    location_name: m.location_name,
    country_iso: m.country_iso,
    language_code: marketLanguage(m),
  };
}
