// The part of a :hover rule's selector the hovered element itself must match (hover-style.ts):
// what decides whether a pointer move may have restyled what the page shows.
import { describe, expect, it } from 'vitest';
import { hoverSubjects } from '../../src/injected/hover-style.js';

describe('hoverSubjects', () => {
  it('takes the compound that carries :hover, without it, for each selector of a list', () => {
    expect(hoverSubjects('.hov:hover')).toEqual(['.hov']);
    expect(hoverSubjects('#menu-wrap:hover #menu')).toEqual(['#menu-wrap']);
    expect(hoverSubjects('nav > li:hover > ul, .card:hover')).toEqual(['li', '.card']);
    expect(hoverSubjects('a:hover + b, x ~ y:hover')).toEqual(['a', 'y']);
    expect(hoverSubjects(':hover')).toEqual(['*']);
    expect(hoverSubjects('tr:hover td:hover')).toEqual(['tr', 'td']);
  });

  it('drops pseudo-elements, keeps attribute selectors and escaped characters whole', () => {
    expect(hoverSubjects('.tip:hover::after')).toEqual(['.tip']);
    expect(hoverSubjects('a:hover:before')).toEqual(['a']);
    expect(hoverSubjects('[data-x="a b:hover"]:hover')).toEqual(['[data-x="a b:hover"]']);
    expect(hoverSubjects('.hover\\:bg-red:hover')).toEqual(['.hover\\:bg-red']);
    expect(hoverSubjects('.sm\\:hover\\:x:hover')).toEqual(['.sm\\:hover\\:x']);
  });

  it('cannot split :hover inside :is(), :where() or :has(), nor a nested rule', () => {
    expect(hoverSubjects('.row:has(:hover)')).toBeUndefined();
    expect(hoverSubjects(':is(a:hover, b)')).toBeUndefined();
    expect(hoverSubjects('&:hover')).toBeUndefined();
  });
});
