// Read-only page overviews (SPEC §11.5–11.7): element counts, tables and lists as data, raw HTML.
// Text is read by walking text nodes with a cap — never layout (innerText) and never the whole
// text of a huge element. Runs in the page.
import { pageTitle, pageUrl } from './page-context.js';
import { collapseSpace } from './aria-name.js';
import { isHtml, textSnippet } from './dom-describe.js';
import { heldElement } from './locate.js';

interface InspectRequest {
  selectors?: string[];
  limit?: number;
}
type CustomCount = number | { count: number; items: string[] } | { error: string };
interface InspectResult {
  title: string;
  url: string;
  elements: Record<string, number>;
  custom?: Record<string, CustomCount>;
}

export type ExtractKind = 'table' | 'list';
type ExtractResult =
  | { ok: true; type: 'table'; headers: string[]; rows: string[][]; rowCount: number }
  | { ok: true; type: 'list'; items: string[]; itemCount: number }
  | { ok: false; reason: 'no-structure' | 'no-table' | 'no-list' | 'gone'; tag?: string };

interface DomResult {
  ok: true;
  html: string;
  tagName: string;
  length: number;
}

/**
 * Text of a subtree as a reader sees it, whitespace collapsed, at most `max` characters: block
 * elements and <br> separate words ("a<div>b</div>" → "a b"), script/style/template and
 * [hidden] are skipped, and the walk stops once `max` is reached.
 */

/** SPEC §11.5: title, URL, counts of common elements, and custom selectors (with texts up to `limit`). */
export function inspectPage(req: InspectRequest): InspectResult {
  const elements: Record<string, number> = {};
  for (const tag of [
    'a',
    'button',
    'input',
    'textarea',
    'select',
    'h1',
    'h2',
    'h3',
    'img',
    'form',
    'table',
    'iframe',
  ]) {
    elements[tag] = document.getElementsByTagName(tag).length;
  }
  const out: InspectResult = { title: pageTitle(), url: pageUrl(), elements };
  if (req.selectors?.length) {
    const custom: Record<string, CustomCount> = {};
    for (const sel of req.selectors) {
      let list: NodeListOf<Element>;
      try {
        list = document.querySelectorAll(sel);
      } catch {
        custom[sel] = { error: 'invalid selector' };
        continue;
      }
      custom[sel] = req.limit
        ? {
            count: list.length,
            items: Array.from(list)
              .slice(0, req.limit)
              .map((el) => textSnippet(el, 100)),
          }
        : list.length;
    }
    out.custom = custom;
  }
  return out;
}

/** An element's ARIA role as written (explicit only: cheap, and what grid widgets use). */
function explicitRole(el: Element): string {
  return (el.getAttribute('role') ?? '').trim().split(/\s+/)[0]!.toLowerCase();
}

/** The table an element is or holds: a <table>, or a role=table|grid|treegrid. */
function tableIn(el: Element): Element | undefined {
  const sel = 'table, [role="table"], [role="grid"], [role="treegrid"]';
  return el.matches(sel) ? el : (el.querySelector(sel) ?? undefined);
}

/** The list an element is or holds: <ul>, <ol>, role=list. */
function listIn(el: Element): Element | undefined {
  const sel = 'ul, ol, [role="list"]';
  return el.matches(sel) ? el : (el.querySelector(sel) ?? undefined);
}

/** Rows of a table-like element, each as its cells; `header` marks rows made only of header cells. */
function tableRows(table: Element): { cells: Element[]; header: boolean; inHead: boolean }[] {
  const rows: { cells: Element[]; header: boolean; inHead: boolean }[] = [];
  if (isHtml(table, 'table')) {
    for (const tr of Array.from(table.rows)) {
      const cells = Array.from(tr.cells);
      if (!cells.length) continue;
      rows.push({
        cells,
        header: cells.every((c) => c.localName === 'th'),
        inHead: tr.parentElement?.localName === 'thead',
      });
    }
    return rows;
  }
  // ARIA grid: rows that belong to this grid (not to one nested in it), cells that belong to the row.
  const gridSel = 'table, [role="table"], [role="grid"], [role="treegrid"]';
  const rowEls = table.querySelectorAll('[role="row"], tr');
  for (const row of Array.from(rowEls)) {
    if (row.parentElement?.closest(gridSel) !== table) continue;
    const cells = Array.from(
      row.querySelectorAll('[role="cell"], [role="gridcell"], [role="columnheader"], [role="rowheader"], td, th'),
    ).filter((c) => c.parentElement?.closest('[role="row"], tr') === row);
    if (!cells.length) continue;
    const header = cells.every((c) => explicitRole(c) === 'columnheader' || c.localName === 'th');
    rows.push({ cells, header, inHead: row.closest('[role="rowgroup"], thead') !== null && header });
  }
  return rows;
}

/** SPEC §11.6 table shape: headers from <thead> (or a first row of header cells), data rows after. */
function extractTable(table: Element, limit: number, cellMax: number): ExtractResult {
  const rows = tableRows(table);
  const headRows = rows.filter((r) => r.inHead);
  let headerRow = headRows[headRows.length - 1];
  if (!headerRow && rows[0]?.header) headerRow = rows[0];
  const data = rows.filter((r) => !r.inHead && r !== headerRow);
  return {
    ok: true,
    type: 'table',
    headers: headerRow ? headerRow.cells.map((c) => textSnippet(c, cellMax)) : [],
    rows: data.slice(0, limit).map((r) => r.cells.map((c) => textSnippet(c, cellMax))),
    rowCount: data.length,
  };
}

/** SPEC §11.6 list shape: the direct items of the list (or the list items inside a container). */
function extractList(el: Element, limit: number, cellMax: number): ExtractResult {
  const list = listIn(el);
  let items: Element[];
  if (list) {
    items = Array.from(list.children).filter((c) => c.localName === 'li' || explicitRole(c) === 'listitem');
    // role=list with wrappers between it and its items: the items whose nearest list is this one.
    if (!items.length)
      items = Array.from(list.querySelectorAll('li, [role="listitem"]')).filter(
        (c) => c.parentElement?.closest('ul, ol, [role="list"]') === list,
      );
  } else {
    items = Array.from(el.querySelectorAll('li, [role="listitem"]'));
  }
  return {
    ok: true,
    type: 'list',
    items: items.slice(0, limit).map((c) => textSnippet(c, cellMax)),
    itemCount: items.length,
  };
}

/** Auto-detection of SPEC §11.6, or the `type` asked for. `handle` is a held element (locate). */
export function extractData(req: {
  handle?: number;
  type?: ExtractKind;
  limit: number;
  cellMax: number;
}): ExtractResult {
  const el = req.handle === undefined ? document.body : heldElement(req.handle);
  if (!el || !el.isConnected) return { ok: false, reason: 'gone' };
  const table = tableIn(el);
  if (req.type === 'table' || (!req.type && table)) {
    if (table) return extractTable(table, req.limit, req.cellMax);
    if (el.querySelector('[role="row"], tr')) return extractTable(el, req.limit, req.cellMax);
    return { ok: false, reason: 'no-table', tag: el.localName };
  }
  if (req.type === 'list' || listIn(el)) {
    if (listIn(el) || el.querySelector('li, [role="listitem"]')) return extractList(el, req.limit, req.cellMax);
    return { ok: false, reason: 'no-list', tag: el.localName };
  }
  if (el.querySelector('[role="row"], tr')) return extractTable(el, req.limit, req.cellMax);
  if (el.querySelector('li, [role="listitem"]')) return extractList(el, req.limit, req.cellMax);
  return { ok: false, reason: 'no-structure', tag: el.localName };
}

/** SPEC §11.7: outer (or inner) HTML of a held element or the whole document, at most `max` characters. */
export function domHtml(req: { handle?: number; outer: boolean; max: number }): DomResult | { ok: false } {
  const el = req.handle === undefined ? document.documentElement : heldElement(req.handle);
  if (!el || !el.isConnected) return { ok: false };
  const html = req.outer ? el.outerHTML : el.innerHTML;
  return {
    ok: true,
    html: html.length > req.max ? html.slice(0, req.max) : html,
    tagName: el.localName,
    length: html.length,
  };
}

export interface TextCheck {
  expected: string;
  selector?: string;
  caseSensitive: boolean;
}
interface TextCheckResult {
  passed: boolean;
  actual?: string;
  error?: string;
}

/**
 * SPEC §11.13 text assertions: the visible text (innerText, whitespace collapsed) of any element
 * matching `selector` (default body) includes `expected`. A failure says what the text was.
 */
export function checkTexts(checks: TextCheck[]): TextCheckResult[] {
  return checks.map((c) => {
    let els: Element[];
    try {
      els = c.selector
        ? Array.from(document.querySelectorAll(c.selector)).slice(0, 200)
        : document.body
          ? [document.body]
          : [];
    } catch {
      return { passed: false, error: `invalid selector "${c.selector}"` };
    }
    if (!els.length) return { passed: false, error: `no element matches "${c.selector}"` };
    const want = c.caseSensitive ? collapseSpace(c.expected) : collapseSpace(c.expected).toLowerCase();
    const texts = els.map((el) => collapseSpace((el as HTMLElement).innerText ?? el.textContent ?? ''));
    if (texts.some((t) => (c.caseSensitive ? t : t.toLowerCase()).includes(want))) return { passed: true };
    const first = texts[0]!;
    const actual = first.length > 200 ? `${first.slice(0, 199)}…` : first;
    return { passed: false, actual: els.length > 1 ? `${els.length} elements, first: ${actual}` : actual };
  });
}
