// Value serialization for `pageFunction` and `poll` results (SPEC §17.7). Runs in the page: turns
// any value into tagged JSON (`{ type, ... }`) that survives `returnByValue`. Unwrapping, and
// deciding what to show the agent, is left to the Node side.
//
// Limits: arrays 100 items, objects 50 keys, Map/Set 50 entries, NodeList/HTMLCollection 20 items,
// element attributes 20 (values 100 chars), element text 200 chars, function source 200 chars,
// error stack 500 chars. A container that was cut carries `truncated: true`; the flag is omitted
// otherwise. Depth: the top-level value sits at depth 0 and containers (array, object, Map, Set,
// node list) are expanded while their depth is below `maxDepth` (default 6); deeper ones become
// `{ type: 'maxDepth', kind }`, kind naming what was not expanded ('array', 'object', 'Map', …).
// A container met again inside itself becomes `{ type: 'circular' }`; a container shared by two
// siblings is serialized twice, since that is not a cycle.
// Type checks are brand checks or `Object.prototype.toString` tags, never `instanceof` alone, so
// values from other frames serialize the same; DOM values are recognised by shape, so no DOM
// global is named (the non-DOM branches also run, and are unit-tested, in Node).

export type SerializedNumber = number | 'NaN' | 'Infinity' | '-Infinity' | '-0';

export interface SerializedElement {
  type: 'Element';
  tag: string;
  /** Omitted when empty, as is `className`. */
  id?: string;
  className?: string;
  attributes: Record<string, string>;
  text: string;
  isConnected: boolean;
  childCount: number;
}

export type SerializedValue =
  | { type: 'null'; value: null }
  | { type: 'undefined' }
  | { type: 'boolean'; value: boolean }
  | { type: 'number'; value: SerializedNumber }
  | { type: 'string'; value: string; length?: number; truncated?: true }
  | { type: 'bigint'; value: string }
  | { type: 'symbol'; value: string }
  | { type: 'function'; value: string }
  | { type: 'Date'; value: string; timestamp?: number }
  | { type: 'Map'; entries: Array<[SerializedValue, SerializedValue]>; size: number; truncated?: true }
  | { type: 'Set'; values: SerializedValue[]; size: number; truncated?: true }
  | { type: 'RegExp'; value: string }
  | { type: 'Error'; name: string; message: string; stack?: string }
  | SerializedElement
  | { type: 'NodeList' | 'HTMLCollection'; items: SerializedValue[]; length: number; truncated?: true }
  | { type: 'Document'; title: string; url: string; readyState: string }
  | { type: 'Window'; url: string; width: number; height: number }
  | { type: 'Window'; crossOrigin: true }
  | { type: 'node'; nodeName: string; text?: string }
  | { type: 'array'; value: SerializedValue[]; length: number; truncated?: true }
  | { type: 'object'; value: Record<string, SerializedValue>; truncated?: true }
  | { type: 'circular' }
  | { type: 'maxDepth'; kind: string }
  | { type: 'unserializable'; value: string };

/** What one serialization carries down the tree: the depth limit and the containers being expanded. */
export interface SerializeState {
  maxDepth: number;
  ancestors: Set<object>;
}

/** Serializes any page value into tagged JSON; `maxDepth` bounds how deep containers are expanded. */
export function serializeValue(value: unknown, maxDepth = 6): SerializedValue {
  return serializeNested(value, 0, { maxDepth, ancestors: new Set() });
}

export function serializeNested(value: unknown, depth: number, state: SerializeState): SerializedValue {
  try {
    switch (typeof value) {
      case 'undefined': return { type: 'undefined' };
      case 'boolean': return { type: 'boolean', value };
      case 'number': return { type: 'number', value: serializeNumber(value) };
      // A page may return megabytes (issue 15 item 7): cut here, before it crosses the wire.
      case 'string': return value.length > 50_000 ? { type: 'string', value: `${value.slice(0, 50_000)}…`, length: value.length, truncated: true } : { type: 'string', value };
      case 'bigint': return { type: 'bigint', value: String(value) };
      case 'symbol': return { type: 'symbol', value: value.description ?? '' };
      case 'function': return { type: 'function', value: serializeClip(Function.prototype.toString.call(value), 200) };
    }
    if (value === null) return { type: 'null', value: null };
    return serializeObject(value as object, depth, state);
  } catch (err) {
    // A throwing getter, a revoked Proxy or a hostile toString must not lose the whole result.
    return { type: 'unserializable', value: serializeClip(serializeErrorText(err), 200) };
  }
}

export function serializeNumber(n: number): SerializedNumber {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '-Infinity';
  if (Object.is(n, -0)) return '-0';
  return n;
}

/** Objects: leaves (Date, RegExp, Error, DOM values) first, then containers behind the guards. */
export function serializeObject(value: object, depth: number, state: SerializeState): SerializedValue {
  const leaf = serializeLeafObject(value);
  if (leaf) return leaf;
  const kind = serializeContainerKind(value);
  if (state.ancestors.has(value)) return { type: 'circular' };
  if (depth >= state.maxDepth) return { type: 'maxDepth', kind };
  state.ancestors.add(value);
  try {
    switch (kind) {
      case 'array': return serializeArray(value as unknown[], depth, state);
      case 'Map': return serializeMap(value as Map<unknown, unknown>, depth, state);
      case 'Set': return serializeSet(value as Set<unknown>, depth, state);
      case 'NodeList': case 'HTMLCollection':
        return serializeNodeList(value as ArrayLike<unknown>, kind, depth, state);
      default: return serializePlainObject(value, depth, state);
    }
  } finally {
    state.ancestors.delete(value);
  }
}

/** The class name from `Object.prototype.toString`, e.g. 'Date', 'HTMLCollection'. */
export function serializeTagOf(value: object): string {
  return Object.prototype.toString.call(value).slice(8, -1);
}

/** Values serialized without looking inside them again, or undefined for a container. */
export function serializeLeafObject(value: object): SerializedValue | undefined {
  if (serializeIsWindow(value)) return serializeWindow(value as Window);
  if (serializeIsDomNode(value)) return serializeDomNode(value as Node);
  if (serializeIsDate(value)) {
    const timestamp = Date.prototype.getTime.call(value);
    if (Number.isNaN(timestamp)) return { type: 'Date', value: 'Invalid Date' };
    return { type: 'Date', value: Date.prototype.toISOString.call(value), timestamp };
  }
  const tag = serializeTagOf(value);
  if (tag === 'RegExp') return { type: 'RegExp', value: String(value) };
  if (tag === 'Error' || tag === 'DOMException' || value instanceof Error) return serializeError(value as Error);
  return undefined;
}

export function serializeContainerKind(value: object): string {
  if (Array.isArray(value)) return 'array';
  if (serializeIsMap(value)) return 'Map';
  if (serializeIsSet(value)) return 'Set';
  const tag = serializeTagOf(value);
  const length = (value as { length?: unknown }).length;
  if (typeof length === 'number' && typeof (value as { item?: unknown }).item === 'function') {
    if (tag.endsWith('NodeList')) return 'NodeList';
    if (tag.endsWith('Collection')) return 'HTMLCollection';
  }
  return 'object';
}

// Brand checks: they pass for Maps, Sets and Dates of any frame and fail for look-alikes.
export function serializeIsMap(value: object): boolean {
  try {
    Map.prototype.has.call(value, undefined);
    return true;
  } catch {
    return false; // Not a Map: `has` rejects anything without Map internals.
  }
}

export function serializeIsSet(value: object): boolean {
  try {
    Set.prototype.has.call(value, undefined);
    return true;
  } catch {
    return false; // Not a Set: `has` rejects anything without Set internals.
  }
}

export function serializeIsDate(value: object): boolean {
  try {
    Date.prototype.getTime.call(value);
    return true;
  } catch {
    return false; // Not a Date: `getTime` rejects anything without a time value.
  }
}

export function serializeError(err: Error): SerializedValue {
  const name = String(err.name);
  const message = String(err.message);
  return typeof err.stack === 'string'
    ? { type: 'Error', name, message, stack: serializeClip(err.stack, 500) }
    : { type: 'Error', name, message };
}

export function serializeErrorText(err: unknown): string {
  try {
    return err instanceof Error || (typeof err === 'object' && err !== null && 'message' in err)
      ? `${(err as Error).name}: ${(err as Error).message}`
      : String(err);
  } catch {
    return 'value could not be read'; // Even the error is hostile; the tag alone still informs.
  }
}

export function serializeArray(value: unknown[], depth: number, state: SerializeState): SerializedValue {
  const maxItems = 100;
  const length = value.length;
  const items: SerializedValue[] = [];
  for (let i = 0; i < Math.min(length, maxItems); i++) items.push(serializeProperty(value, i, depth, state));
  return length > maxItems ? { type: 'array', value: items, length, truncated: true } : { type: 'array', value: items, length };
}

export function serializePlainObject(value: object, depth: number, state: SerializeState): SerializedValue {
  const maxKeys = 50;
  const keys = Object.keys(value);
  // fromEntries defines own properties, so a '__proto__' key stays a key instead of a prototype.
  const out = Object.fromEntries(keys.slice(0, maxKeys).map((key) => [key, serializeProperty(value, key, depth, state)]));
  return keys.length > maxKeys ? { type: 'object', value: out, truncated: true } : { type: 'object', value: out };
}

/** One child of a container; a getter that throws spoils only its own slot. */
export function serializeProperty(holder: object, key: PropertyKey, depth: number, state: SerializeState): SerializedValue {
  let child: unknown;
  try {
    child = (holder as Record<PropertyKey, unknown>)[key];
  } catch (err) {
    return { type: 'unserializable', value: serializeClip(serializeErrorText(err), 200) };
  }
  return serializeNested(child, depth + 1, state);
}

export function serializeMap(value: Map<unknown, unknown>, depth: number, state: SerializeState): SerializedValue {
  const maxEntries = 50;
  const size = Reflect.get(Map.prototype, 'size', value) as number;
  const entries: Array<[SerializedValue, SerializedValue]> = [];
  for (const [k, v] of Map.prototype.entries.call(value)) {
    if (entries.length >= maxEntries) break;
    entries.push([serializeNested(k, depth + 1, state), serializeNested(v, depth + 1, state)]);
  }
  return size > maxEntries ? { type: 'Map', entries, size, truncated: true } : { type: 'Map', entries, size };
}

export function serializeSet(value: Set<unknown>, depth: number, state: SerializeState): SerializedValue {
  const maxValues = 50;
  const size = Reflect.get(Set.prototype, 'size', value) as number;
  const values: SerializedValue[] = [];
  for (const v of Set.prototype.values.call(value)) {
    if (values.length >= maxValues) break;
    values.push(serializeNested(v, depth + 1, state));
  }
  return size > maxValues ? { type: 'Set', values, size, truncated: true } : { type: 'Set', values, size };
}

export function serializeNodeList(
  value: ArrayLike<unknown>, kind: 'NodeList' | 'HTMLCollection', depth: number, state: SerializeState,
): SerializedValue {
  const maxItems = 20;
  const length = value.length;
  const items: SerializedValue[] = [];
  for (let i = 0; i < Math.min(length, maxItems); i++) items.push(serializeProperty(value, i, depth, state));
  return length > maxItems ? { type: kind, items, length, truncated: true } : { type: kind, items, length };
}

/** A window of any frame is its own `window`; reading that (and `postMessage`) is allowed cross-origin. */
export function serializeIsWindow(value: object): boolean {
  try {
    const win = value as { window?: unknown; postMessage?: unknown };
    return win.window === value && typeof win.postMessage === 'function';
  } catch {
    return false; // A Proxy that throws on `window` is not a window.
  }
}

export function serializeWindow(win: Window): SerializedValue {
  try {
    return { type: 'Window', url: win.location.href, width: win.innerWidth, height: win.innerHeight };
  } catch {
    return { type: 'Window', crossOrigin: true }; // The same-origin policy hides a foreign frame's location.
  }
}

/** Recognised by shape rather than `instanceof Node`, which fails for nodes of other frames. */
export function serializeIsDomNode(value: object): boolean {
  const node = value as { nodeType?: unknown; nodeName?: unknown; cloneNode?: unknown };
  return typeof node.nodeType === 'number' && typeof node.nodeName === 'string' && typeof node.cloneNode === 'function';
}

export function serializeDomNode(node: Node): SerializedValue {
  if (node.nodeType === 1) return serializeElement(node as Element);
  if (node.nodeType === 9) {
    const doc = node as Document;
    return { type: 'Document', title: doc.title, url: doc.URL, readyState: doc.readyState };
  }
  const text = node.textContent;
  return text ? { type: 'node', nodeName: node.nodeName, text: serializeClip(serializeCollapse(text), 200) }
    : { type: 'node', nodeName: node.nodeName };
}

export function serializeElement(el: Element): SerializedElement {
  const maxAttributes = 20;
  const attributes: Array<[string, string]> = [];
  for (let i = 0; i < Math.min(el.attributes.length, maxAttributes); i++) {
    const attr = el.attributes[i];
    if (attr) attributes.push([attr.name, serializeClip(attr.value, 100)]);
  }
  const out: SerializedElement = {
    type: 'Element',
    tag: el.tagName.toLowerCase(),
    attributes: Object.fromEntries(attributes),
    text: serializeClip(serializeCollapse(el.textContent ?? ''), 200),
    isConnected: el.isConnected,
    childCount: el.childElementCount,
  };
  if (el.id) out.id = el.id;
  // getAttribute, not `className`: on SVG elements that is an SVGAnimatedString.
  const className = el.getAttribute('class');
  if (className) out.className = className;
  return out;
}

export function serializeCollapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Cuts `text` to at most `maxChars` characters, the last one an ellipsis when it was cut. */
export function serializeClip(text: string, maxChars: number): string {
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}
