// What the query steps ask the page (SPEC §11.2–§11.4): steps/query.ts reads them from the agent's
// parameters; injected/element-query.ts and element-search.ts answer them.

/** What a CSS query reads of each element. */
export const QUERY_OUTPUT_MODES = ['text', 'html', 'href', 'value', 'tag'] as const;
export type QueryOutputMode = (typeof QUERY_OUTPUT_MODES)[number];
export type QueryOutput = QueryOutputMode | QueryOutputMode[] | { attribute: string | string[] };

export interface CssQuery {
  kind: 'css';
  selector: string;
  limit: number;
  output: QueryOutput;
  clean: boolean;
  metadata: boolean;
}
export interface RoleQuery {
  kind: 'role';
  roles: string[];
  name?: string;
  nameExact?: boolean;
  nameRegex?: string;
  level?: number;
  checked?: boolean | 'mixed';
  disabled?: boolean;
  countOnly: boolean;
  limit: number;
}
export type QuerySpec = CssQuery | RoleQuery;

/** snapshotSearch: text, pattern and/or role, optionally near a point, over a walk bounded like the snapshot's. */
export interface SearchCriteria {
  text?: string;
  pattern?: string;
  role?: string;
  exact: boolean;
  limit: number;
  context: number;
  near?: { x: number; y: number; radius: number };
  maxDepth: number;
  maxElements: number;
}
