// Values as agents read them (DECISIONS "Values", a departure from SPEC §17.7): the top level is
// `{ type, value }`; inside it JSON-safe values are plain JSON, and only what JSON cannot carry is
// tagged where it occurs (`{ $type: 'undefined' }`, `{ $type: 'number', value: 'NaN' }`, …).
//
// It calls no other page module: elements are described by the `element` option (the runtime passes
// one that hands out refs); without it, by tag, id and text.
//
// Limits: arrays 100 items, objects 50 keys, Map/Set 50 entries, strings 2,000 characters inside a
// value (50,000 at the top), 5,000 values in all. A cut array ends with `{ $truncated: <left out> }`,
// a cut object carries `$truncated: <keys left out>`, a cut string ends with `…[+N chars]`. Depth:
// containers below `maxDepth` (default 6) are expanded, deeper ones are `{ $type: 'maxDepth' }`.
// Type checks are brand checks or `Object.prototype.toString` tags, never `instanceof` alone, so
// values from other frames serialize the same; DOM values are recognised by shape.
import { MAX_STRING_CHARS } from '../shared/index.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A value JSON cannot carry, in place: `$type` names it. */
interface Tagged {
  $type: string;
  [key: string]: Json;
}
/** The top level: `type` names the value; JSON-safe values are in `value`, a tag's fields beside it. */
export interface SerializedValue {
  type: string;
  value?: Json;
  [key: string]: Json | undefined;
}

interface SerializeOptions {
  maxDepth?: number;
  /** How an element is named: a ref the agent can act on, and a short description. */
  element?: (el: Element) => { ref?: string; desc: string };
}

interface SerializeState {
  maxDepth: number;
  ancestors: Set<object>;
  tags: WeakSet<object>;
  /** Values still allowed (5,000 in all). */
  budget: number;
  element?: SerializeOptions['element'];
}

/** Serializes any page value for an agent: `{ type, value }` at the top, plain JSON inside. */
export function serializeValue(value: unknown, options: SerializeOptions | number = {}): SerializedValue {
  const opts = typeof options === 'number' ? { maxDepth: options } : options;
  const state: SerializeState = {
    maxDepth: opts.maxDepth ?? 6,
    ancestors: new Set(),
    tags: new WeakSet(),
    budget: 5_000,
    element: opts.element,
  };
  // A page may return megabytes (issue 15 item 7): cut here, before it crosses the wire.
  if (typeof value === 'string') {
    return value.length > MAX_STRING_CHARS
      ? { type: 'string', value: `${value.slice(0, MAX_STRING_CHARS)}…`, length: value.length, truncated: true }
      : { type: 'string', value };
  }
  const inner = serializeNested(value, 0, state);
  if (inner !== null && typeof inner === 'object' && state.tags.has(inner)) {
    const { $type, ...fields } = inner as Tagged;
    return { type: $type, ...fields };
  }
  const type = inner === null ? 'null' : Array.isArray(inner) ? 'array' : typeof inner;
  return { type, value: inner };
}

function serializeTag(state: SerializeState, $type: string, fields: Record<string, Json> = {}): Tagged {
  const tag: Tagged = { $type, ...fields };
  state.tags.add(tag);
  return tag;
}

function serializeNested(value: unknown, depth: number, state: SerializeState): Json {
  try {
    if (--state.budget < 0) return serializeTag(state, 'truncated');
    switch (typeof value) {
      case 'undefined':
        return serializeTag(state, 'undefined');
      case 'boolean':
        return value;
      case 'number':
        return Number.isFinite(value) && !Object.is(value, -0)
          ? value
          : serializeTag(state, 'number', { value: serializeNumber(value) });
      case 'string':
        return serializeString(value, 2_000);
      case 'bigint':
        return serializeTag(state, 'bigint', { value: String(value) });
      case 'symbol':
        return serializeTag(state, 'symbol', { value: value.description ?? '' });
      case 'function':
        return serializeTag(state, 'function', { value: serializeClip(Function.prototype.toString.call(value), 200) });
    }
    if (value === null) return null;
    return serializeObject(value as object, depth, state);
  } catch (err) {
    // A throwing getter, a revoked Proxy or a hostile toString must not lose the whole result.
    return serializeTag(state, 'unserializable', { value: serializeClip(serializeErrorText(err), 200) });
  }
}

function serializeNumber(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (Object.is(n, -0)) return '-0';
  return n > 0 ? 'Infinity' : '-Infinity';
}

/** A string cut to `maxChars`, saying how much was left out. */
function serializeString(text: string, maxChars: number): string {
  return text.length > maxChars ? `${text.slice(0, maxChars)}…[+${text.length - maxChars} chars]` : text;
}

/** Objects: leaves (Date, RegExp, Error, DOM values) first, then containers behind the guards. */
function serializeObject(value: object, depth: number, state: SerializeState): Json {
  const leaf = serializeLeafObject(value, depth, state);
  if (leaf !== undefined) return leaf;
  const kind = serializeContainerKind(value);
  if (state.ancestors.has(value)) return serializeTag(state, 'circular');
  if (depth >= state.maxDepth) return serializeTag(state, 'maxDepth', { kind });
  state.ancestors.add(value);
  try {
    switch (kind) {
      case 'array':
        return serializeList(value as ArrayLike<unknown>, depth, state);
      case 'map':
        return serializeMap(value as Map<unknown, unknown>, depth, state);
      case 'set':
        return serializeSet(value as Set<unknown>, depth, state);
      default:
        return serializePlainObject(value, depth, state);
    }
  } finally {
    state.ancestors.delete(value);
  }
}

/** The class name from `Object.prototype.toString`, e.g. 'Date', 'HTMLCollection'. */
function serializeTagOf(value: object): string {
  return Object.prototype.toString.call(value).slice(8, -1);
}

/** Values serialized without looking inside them again, or undefined for a container. */
function serializeLeafObject(value: object, depth: number, state: SerializeState): Json | undefined {
  if (serializeIsWindow(value)) return serializeWindow(value as Window, state);
  if (serializeIsDomNode(value)) return serializeDomNode(value as Node, state);
  if (serializeIsDate(value)) {
    const time = Date.prototype.getTime.call(value);
    return serializeTag(state, 'date', {
      value: Number.isNaN(time) ? 'Invalid Date' : Date.prototype.toISOString.call(value),
    });
  }
  const tag = serializeTagOf(value);
  if (tag === 'RegExp') return serializeTag(state, 'regexp', { value: String(value) });
  if (tag === 'Promise') return serializeTag(state, 'promise');
  if (tag === 'Error' || tag === 'DOMException' || value instanceof Error)
    return serializeError(value as Error, depth, state);
  return undefined;
}

function serializeContainerKind(value: object): string {
  if (Array.isArray(value)) return 'array';
  if (serializeIsMap(value)) return 'map';
  if (serializeIsSet(value)) return 'set';
  if (ArrayBuffer.isView(value) && !(serializeTagOf(value) === 'DataView')) return 'array';
  const tag = serializeTagOf(value);
  const length = (value as { length?: unknown }).length;
  // NodeList, HTMLCollection: arrays of the elements they hold.
  if (
    typeof length === 'number' &&
    typeof (value as { item?: unknown }).item === 'function' &&
    /(NodeList|Collection)$/.test(tag)
  )
    return 'array';
  return 'object';
}

// Brand checks: they pass for Maps, Sets and Dates of any frame and fail for look-alikes.
function serializeIsMap(value: object): boolean {
  try {
    Map.prototype.has.call(value, undefined);
    return true;
  } catch {
    return false; // Not a Map: `has` rejects anything without Map internals.
  }
}

function serializeIsSet(value: object): boolean {
  try {
    Set.prototype.has.call(value, undefined);
    return true;
  } catch {
    return false; // Not a Set: `has` rejects anything without Set internals.
  }
}

function serializeIsDate(value: object): boolean {
  try {
    Date.prototype.getTime.call(value);
    return true;
  } catch {
    return false; // Not a Date: `getTime` rejects anything without a time value.
  }
}

/** Name and message; the stack (cut to 500 characters) only for an error at the top. */
function serializeError(err: Error, depth: number, state: SerializeState): Tagged {
  const fields: Record<string, Json> = { name: String(err.name), message: serializeString(String(err.message), 2_000) };
  if (depth === 0 && typeof err.stack === 'string') fields.stack = serializeClip(err.stack, 500);
  return serializeTag(state, 'error', fields);
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

/** Arrays, typed arrays and node lists: the first 100 items, then `{ $truncated: <left out> }`. */
function serializeList(value: ArrayLike<unknown>, depth: number, state: SerializeState): Json[] {
  const maxItems = 100;
  const length = value.length;
  const items: Json[] = [];
  for (let i = 0; i < Math.min(length, maxItems); i++) items.push(serializeProperty(value, i, depth, state));
  if (length > maxItems) items.push({ $truncated: length - maxItems });
  return items;
}

function serializePlainObject(value: object, depth: number, state: SerializeState): Json {
  const maxKeys = 50;
  const keys = Object.keys(value);
  // fromEntries defines own properties, so a '__proto__' key stays a key instead of a prototype.
  const out = Object.fromEntries(
    keys.slice(0, maxKeys).map((key) => [key, serializeProperty(value, key, depth, state)]),
  ) as Record<string, Json>;
  if (keys.length > maxKeys) out.$truncated = keys.length - maxKeys;
  return out;
}

/** One child of a container; a getter that throws spoils only its own slot. */
function serializeProperty(holder: object, key: PropertyKey, depth: number, state: SerializeState): Json {
  let child: unknown;
  try {
    child = (holder as Record<PropertyKey, unknown>)[key];
  } catch (err) {
    return serializeTag(state, 'unserializable', { value: serializeClip(serializeErrorText(err), 200) });
  }
  return serializeNested(child, depth + 1, state);
}

function serializeMap(value: Map<unknown, unknown>, depth: number, state: SerializeState): Tagged {
  const maxEntries = 50;
  const size = Reflect.get(Map.prototype, 'size', value) as number;
  const entries: Json[] = [];
  for (const [k, v] of Map.prototype.entries.call(value)) {
    if (entries.length >= maxEntries) break;
    entries.push([serializeNested(k, depth + 1, state), serializeNested(v, depth + 1, state)]);
  }
  return serializeTag(state, 'map', { size, entries });
}

function serializeSet(value: Set<unknown>, depth: number, state: SerializeState): Tagged {
  const maxValues = 50;
  const size = Reflect.get(Set.prototype, 'size', value) as number;
  const values: Json[] = [];
  for (const v of Set.prototype.values.call(value)) {
    if (values.length >= maxValues) break;
    values.push(serializeNested(v, depth + 1, state));
  }
  return serializeTag(state, 'set', { size, values });
}

/** A window of any frame is its own `window`; reading that (and `postMessage`) is allowed cross-origin. */
function serializeIsWindow(value: object): boolean {
  try {
    const win = value as { window?: unknown; postMessage?: unknown };
    return win.window === value && typeof win.postMessage === 'function';
  } catch {
    return false; // A Proxy that throws on `window` is not a window.
  }
}

function serializeWindow(win: Window, state: SerializeState): Tagged {
  try {
    return serializeTag(state, 'window', { url: win.location.href, width: win.innerWidth, height: win.innerHeight });
  } catch {
    return serializeTag(state, 'window', { crossOrigin: true }); // The same-origin policy hides a foreign frame's location.
  }
}

/** Recognised by shape rather than `instanceof Node`, which fails for nodes of other frames. */
function serializeIsDomNode(value: object): boolean {
  const node = value as { nodeType?: unknown; nodeName?: unknown; cloneNode?: unknown };
  return typeof node.nodeType === 'number' && typeof node.nodeName === 'string' && typeof node.cloneNode === 'function';
}

function serializeDomNode(node: Node, state: SerializeState): Tagged {
  if (node.nodeType === 1) return serializeElement(node as Element, state);
  if (node.nodeType === 9) {
    const doc = node as Document;
    return serializeTag(state, 'document', { url: doc.URL, title: doc.title, readyState: doc.readyState });
  }
  const text = serializeCollapse(node.textContent ?? '');
  return serializeTag(state, 'node', { name: node.nodeName, ...(text ? { text: serializeClip(text, 200) } : {}) });
}

/** `{ $type: 'element', ref, desc }`; a detached element has no ref and says so. */
function serializeElement(el: Element, state: SerializeState): Tagged {
  let named: { ref?: string; desc: string } | undefined;
  try {
    named = state.element?.(el);
  } catch {
    named = undefined; // The describer failed on an odd element: the plain description still names it.
  }
  const desc = named?.desc ?? serializeElementDesc(el);
  return serializeTag(state, 'element', {
    ...(named?.ref && el.isConnected ? { ref: named.ref } : {}),
    desc,
    ...(el.isConnected ? {} : { connected: false }),
  });
}

/** `button#save.primary "Save"`: tag, id, first class and text, without any other page function. */
export function serializeElementDesc(el: Element): string {
  const cls = (el.getAttribute('class') ?? '').trim().split(/\s+/)[0];
  const text = serializeClip(serializeCollapse(el.textContent ?? ''), 60);
  return `${el.localName}${el.id ? `#${el.id}` : ''}${cls ? `.${cls}` : ''}${text ? ` "${text}"` : ''}`;
}

function serializeCollapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Cuts `text` to at most `maxChars` characters, the last one an ellipsis when it was cut. */
export function serializeClip(text: string, maxChars: number): string {
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}
