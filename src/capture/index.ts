// capture/ — what a command reports besides step results: screenshots, console, debug logs,
// metrics. Uses cdp/ only.
export { captureScreenshot } from './screenshot.js';
export type { ScreenshotOptions, ScreenshotResult, ImageFormat, RuntimeCall } from './screenshot.js';
export { ConsoleCollector } from './console.js';
export type { ConsoleReport } from './console.js';
export { writeDebugLog, debugLogName } from './debug-log.js';
export { appendMetrics } from './metrics.js';
export { capturePdf, pdfPageCount, pdfProblems } from './pdf.js';
export type { PdfMargins, PdfOptions, PdfResult } from './pdf.js';
export { readConsoleLog, CONSOLE_BUFFER_SIZE, formatConsoleArgs } from './console-log.js';
export type { ConsoleMessage, ConsoleLevel } from './console-log.js';
