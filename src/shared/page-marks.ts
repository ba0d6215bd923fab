// Values the Node side and the page runtime both write or read at the page boundary: a property our
// world sets on DOM objects, and the cap the serializer and the Node side put on a returned string.

/** The property our world sets on a cross-origin frame's <iframe>: that frame's id (page/frames.ts sets it, injected/aria-snapshot.ts reads it). */
export const FRAME_TAG = '__cdpSkillFrameId';

/** The longest string at the top of a value answered whole (issue 15 item 7): injected/serialize.ts cuts it in the page, page/evaluate.ts a primitive that came by value. */
export const MAX_STRING_CHARS = 50_000;
