// The typed face of the DevTools Protocol: the only importer of devtools-protocol (types only,
// so it costs nothing at start-up).

import type { ProtocolMapping } from 'devtools-protocol/types/protocol-mapping.js';
export type { Protocol } from 'devtools-protocol';

export type Commands = ProtocolMapping.Commands;
export type Events = ProtocolMapping.Events;
export type CommandName = keyof Commands;
export type EventName = keyof Events;
export type CommandParams<M extends CommandName> = Commands[M]['paramsType'];
export type CommandResult<M extends CommandName> = Commands[M]['returnType'];
export type EventPayload<E extends EventName> = Events[E][0];

export interface SendOptions {
  /** Per-command timeout; the connection's default otherwise. */
  timeoutMs?: number;
}

/** One CDP target session (flat mode) — or the browser itself when `id` is undefined. */
export interface CdpSession {
  readonly id: string | undefined;
  send<M extends CommandName>(method: M, ...params: CommandParams<M>): Promise<CommandResult<M>>;
  sendWith<M extends CommandName>(
    method: M,
    params: CommandParams<M>[0],
    options: SendOptions,
  ): Promise<CommandResult<M>>;
  on<E extends EventName>(event: E, handler: (payload: EventPayload<E>) => void): () => void;
  /** Resolves with the first `event` payload that passes `predicate`; the caller bounds it. */
  waitFor<E extends EventName>(
    event: E,
    predicate?: (payload: EventPayload<E>) => boolean,
  ): { promise: Promise<EventPayload<E>>; cancel: () => void };
}
