// install/ — `cdp-skill install` / `uninstall`: the skill in ~/.claude/skills and ~/.codex/skills.
export { installSkill, uninstallSkill } from './install.js';
export type { SkillReport, InstallResult, UninstallResult, InstallOptions } from './install.js';
export { detectMode, skillTargets } from './layout.js';
