// mcp/ — the MCP front (`cdp-skill mcp`): the runner behind one MCP tool on stdio. Loaded only in
// that mode (scripts/bundle.mjs builds it as its own bundle), so the CLI never pays for the SDK.
export { serveMcp, callBrowser } from './server.js';
export { browserTool, TOOL_NAME } from './tool.js';
