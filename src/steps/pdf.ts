// The pdf step (SPEC §17.3, DECISIONS): print the tab to a PDF file → {path, pages, bytes}, and
// with validate: true, `valid` after a structural check. The printing lives in capture/pdf.ts.

import { basename, isAbsolute, join } from 'node:path';
import { stateDir } from '../common/index.js';
import { capturePdf, type PdfMargins, type PdfOptions } from '../capture/index.js';
import { defineStep, keysOf, type ParamSchema } from './registry.js';
import { describe, isObj, obj, optBool, optNumber, optString, ParamError } from './params.js';

type PdfParams = Omit<PdfOptions, 'path'> & { path?: string };

const UNIT_INCHES: Record<string, number> = { in: 1, cm: 1 / 2.54, mm: 1 / 25.4, px: 1 / 96 };

/** A length in inches: a number (inches) or a string with a unit ("1cm", "10mm", "0.5in", "48px"). */
export function inches(v: unknown, key: string): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return v;
  const m = typeof v === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*(in|cm|mm|px)?\s*$/.exec(v) : null;
  if (!m)
    throw new ParamError(
      `"${key}" must be inches (a number) or a length like "1cm", "10mm", "48px", got ${describe(v)}`,
    );
  return Number(m[1]) * UNIT_INCHES[m[2] ?? 'in']!;
}

function readMargin(v: unknown): PdfMargins | undefined {
  if (v === undefined) return undefined;
  if (!isObj(v)) {
    const all = inches(v, 'margin');
    return { top: all, bottom: all, left: all, right: all };
  }
  const o = obj(v, ['top', 'bottom', 'left', 'right'], 'margin');
  const m: PdfMargins = {};
  for (const side of ['top', 'bottom', 'left', 'right'] as const) {
    const n = inches(o[side], `margin.${side}`);
    if (n !== undefined) m[side] = n;
  }
  return m;
}

/** Where the file goes: SPEC §17.3 puts a bare file name in the temp dir; a path is taken from the working directory. */
export function pdfPath(path: string | undefined, fallbackName: string): string {
  if (!path) return join(stateDir(), fallbackName);
  if (isAbsolute(path)) return path;
  return basename(path) === path ? join(stateDir(), path) : join(process.cwd(), path);
}

const PDF_PARAMS: ParamSchema = {
  forms: ['true', '"path"'],
  keys: {
    path: '',
    landscape: '',
    pageRanges: '',
    margin: '-',
    validate: '-',
    scale: '-',
    paperWidth: '-',
    paperHeight: '-',
    displayHeaderFooter: '-',
    headerTemplate: '-',
    footerTemplate: '-',
    printBackground: '-',
    preferCSSPageSize: '-',
  },
  returns: '{path, pages}',
};

defineStep<PdfParams>({
  name: 'pdf',
  summary: 'Print to PDF',
  params: PDF_PARAMS,
  needsTab: true,
  readOnly: true,
  parse(v) {
    if (v === true) return {};
    if (typeof v === 'string') {
      if (!v.trim()) throw new ParamError('pdf path must not be empty');
      return { path: v };
    }
    const o = obj(v, keysOf(PDF_PARAMS), 'pdf');
    const pageRanges = optString(o, 'pageRanges');
    if (pageRanges !== undefined && !/^\s*\d+(\s*-\s*\d*)?(\s*,\s*\d+(\s*-\s*\d*)?)*\s*$/.test(pageRanges)) {
      throw new ParamError(`"pageRanges" looks like "1-3" or "1,3,5-", got ${describe(pageRanges)}`);
    }
    const p: PdfParams = {
      path: optString(o, 'path'),
      landscape: optBool(o, 'landscape'),
      scale: optNumber(o, 'scale', { min: 0.1, max: 2 }),
      pageRanges,
      margin: readMargin(o.margin),
      paperWidth: inches(o.paperWidth, 'paperWidth'),
      paperHeight: inches(o.paperHeight, 'paperHeight'),
      displayHeaderFooter: optBool(o, 'displayHeaderFooter'),
      headerTemplate: optString(o, 'headerTemplate', { nonEmpty: false }),
      footerTemplate: optString(o, 'footerTemplate', { nonEmpty: false }),
      printBackground: optBool(o, 'printBackground'),
      preferCSSPageSize: optBool(o, 'preferCSSPageSize'),
      validate: optBool(o, 'validate'),
    };
    if (p.paperWidth === 0 || p.paperHeight === 0)
      throw new ParamError('"paperWidth" and "paperHeight" must be above 0');
    return p;
  },
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    const path = pdfPath(p.path, `${tab.alias}.step${ctx.index}.pdf`);
    return tab.page.guard(capturePdf(tab.page.session, { ...p, path }, ctx.deadline));
  },
});
