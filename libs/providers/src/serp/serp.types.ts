/**
 * The parts of DataForSEO's SERP advanced result that rank collection reads
 * (collectors-wire.md §2.7). Every field may be missing or null; unknown item types pass.
 */
type S = string | null | undefined;
type N = number | null | undefined;

export interface DfsSerpItem {
  type?: S;
  rank_group?: N;
  rank_absolute?: N;
  domain?: S;
  url?: S;
  /** Sitelinks of an organic item. */
  links?: unknown[] | null;
  [field: string]: unknown;
}

export interface DfsSerpResult {
  keyword?: S;
  /** `yyyy-mm-dd hh:mm:ss +00:00` */
  datetime?: S;
  item_types?: string[] | null;
  items?: DfsSerpItem[] | null;
}

export interface DfsReadyResult {
  id?: S;
  tag?: S;
}
