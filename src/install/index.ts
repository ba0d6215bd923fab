// install/ — `cdp-skill install` / `uninstall`: the skill in ~/.claude/skills and ~/.codex/skills.
export { installSkill, uninstallSkill } from './install.js';
export type { SkillReport, InstallResult, UninstallResult, InstallOptions } from './install.js';
export { detectMode, skillTargets } from './layout.js';
export { installMcp, uninstallMcp, mcpTargets, mcpServerEntry, mcpInstructions, MCP_CLIENTS } from './mcp-config.js';
export type { McpClient, McpReport } from './mcp-config.js';
