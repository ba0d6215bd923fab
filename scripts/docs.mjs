#!/usr/bin/env node
// npm run docs: writes SKILL.md's step table from the step registry (build/steps/reference.js,
// tsc's output), between its two markers. test/unit/docs.test.ts fails when the two differ.
import { readFileSync, writeFileSync } from 'node:fs';

const START = '<!-- steps:start -->';
const END = '<!-- steps:end -->';
const file = new URL('../SKILL.md', import.meta.url);
const { stepTable } = await import(new URL('../build/steps/index.js', import.meta.url).href);
const skill = readFileSync(file, 'utf8');
const from = skill.indexOf(START);
const to = skill.indexOf(END);
if (from < 0 || to < from) throw new Error(`SKILL.md has no ${START} … ${END} section`);
const next = `${skill.slice(0, from + START.length)}\n${stepTable()}\n${skill.slice(to)}`;
if (next !== skill) writeFileSync(file, next);
console.log(`SKILL.md: ${Buffer.byteLength(next)} bytes${next === skill ? ', unchanged' : ', step table rewritten'}`);
