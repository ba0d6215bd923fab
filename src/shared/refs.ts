// What a ref looks like (SPEC, "Ref system"): `s{snapshot}e{element}`, handed out by the page's ref map
// (injected/ref-map.ts) and read back by the steps. A cross-origin frame's prefix (`f2s1e4`) is the
// Node side's own (aria/frames.ts).

/** A ref as a regular-expression source, to compose (no anchors, no groups). */
export const REF_SOURCE = 's\\d+e\\d+';

export function refName(snapshot: number, element: number): string {
  return `s${snapshot}e${element}`;
}

export function isRef(text: string): boolean {
  return /^s\d+e\d+$/.test(text);
}

/** The element counter a ref was handed out at; undefined when `text` is no ref. */
export function refElementNumber(text: string): number | undefined {
  const m = /^s\d+e(\d+)$/.exec(text);
  return m ? Number(m[1]) : undefined;
}
