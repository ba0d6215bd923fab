// PDF generation (SPEC §17.3): Chrome's print-to-PDF with the page set-up an agent asks for,
// written to a file; the page count read from the PDF's own page tree and, on request, its
// structure checked. No PDF library: the few markers needed are found in the bytes.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ExecutionError, StepValidationError, type Deadline } from '../common/index.js';
import { isNotImplemented, isPageRangeInvalid, type CdpSession, type Protocol } from '../cdp/index.js';

export interface PdfMargins {
  top?: number;
  bottom?: number;
  left?: number;
  right?: number;
}

export interface PdfOptions {
  path: string;
  landscape?: boolean;
  /** 0.1–2, Chrome's limits. */
  scale?: number;
  pageRanges?: string;
  /** Inches. */
  margin?: PdfMargins;
  paperWidth?: number;
  paperHeight?: number;
  displayHeaderFooter?: boolean;
  headerTemplate?: string;
  footerTemplate?: string;
  printBackground?: boolean;
  preferCSSPageSize?: boolean;
  validate?: boolean;
}

export interface PdfResult {
  path: string;
  pages: number | undefined;
  bytes: number;
  valid?: true;
}

/** SPEC §17.3 defaults: US Letter, 0.4 in margins, backgrounds printed. */
const DEFAULT_MARGIN_IN = 0.4;

export function printParams(o: PdfOptions): Protocol.Page.PrintToPDFRequest {
  const m = o.margin ?? {};
  const params: Protocol.Page.PrintToPDFRequest = {
    landscape: o.landscape ?? false,
    printBackground: o.printBackground ?? true,
    scale: o.scale ?? 1,
    paperWidth: o.paperWidth ?? 8.5,
    paperHeight: o.paperHeight ?? 11,
    marginTop: m.top ?? DEFAULT_MARGIN_IN,
    marginBottom: m.bottom ?? DEFAULT_MARGIN_IN,
    marginLeft: m.left ?? DEFAULT_MARGIN_IN,
    marginRight: m.right ?? DEFAULT_MARGIN_IN,
    displayHeaderFooter: o.displayHeaderFooter ?? false,
    preferCSSPageSize: o.preferCSSPageSize ?? false,
  };
  if (o.pageRanges) params.pageRanges = o.pageRanges;
  // Chrome prints its own date/title/url header when asked for one without a template.
  if (o.headerTemplate !== undefined) params.headerTemplate = o.headerTemplate;
  if (o.footerTemplate !== undefined) params.footerTemplate = o.footerTemplate;
  return params;
}

/** Pages in the PDF: its page objects, else the page tree's /Count; undefined when neither is readable. */
export function pdfPageCount(pdf: Buffer): number | undefined {
  const text = pdf.toString('latin1');
  const objects = text.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
  if (objects) return objects;
  const counts = [...text.matchAll(/\/Type\s*\/Pages[^>]*?\/Count\s+(\d+)|\/Count\s+(\d+)[^>]*?\/Type\s*\/Pages/g)].map(
    (m) => Number(m[1] ?? m[2]),
  );
  return counts.length ? Math.max(...counts) : undefined;
}

/** Structural problems: the header, the end-of-file marker, a cross-reference table or stream. */
export function pdfProblems(pdf: Buffer): string[] {
  const problems: string[] = [];
  if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') problems.push('no %PDF- header');
  const tail = pdf.subarray(Math.max(0, pdf.length - 1024)).toString('latin1');
  if (!tail.includes('%%EOF')) problems.push('no %%EOF marker at the end');
  const startxref = /startxref\s+(\d+)/.exec(tail);
  if (!startxref) problems.push('no startxref');
  else {
    const at = Number(startxref[1]);
    const there = pdf.subarray(at, at + 64).toString('latin1');
    if (!(there.startsWith('xref') || /^\d+\s+\d+\s+obj[\s\S]*\/Type\s*\/XRef/.test(there)))
      problems.push(`startxref points at byte ${at}, where there is no cross-reference table`);
  }
  return problems;
}

export async function capturePdf(session: CdpSession, options: PdfOptions, deadline: Deadline): Promise<PdfResult> {
  let data: string;
  try {
    const call = session.sendWith('Page.printToPDF', printParams(options), {
      timeoutMs: deadline.remainingMs() + 1_000,
    });
    ({ data } = await deadline.race(call, 'the PDF'));
  } catch (err) {
    const message = (err as Error).message;
    if (isPageRangeInvalid(err))
      throw new StepValidationError(`pageRanges "${options.pageRanges}" does not fit the document: ${message}`);
    if (isNotImplemented(err))
      throw new ExecutionError(`This Chrome cannot print to PDF (${message}); a headless Chrome can.`);
    throw err;
  }
  const pdf = Buffer.from(data, 'base64');
  const path = resolve(options.path);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, pdf);
  const result: PdfResult = { path, pages: pdfPageCount(pdf), bytes: pdf.length };
  if (!options.validate) return result;
  const problems = pdfProblems(pdf);
  if (problems.length)
    throw new ExecutionError(`The PDF at ${path} is malformed: ${problems.join('; ')}`, {
      output: { ...result, valid: false, problems },
    });
  return { ...result, valid: true };
}
