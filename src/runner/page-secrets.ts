// Secret values across commands (issue 22 item 2): what this command marked secret is kept in the
// page, and what earlier commands kept there is marked secret in this one's answer.

import { Deadline, fieldSecrets, markSecret } from '../common/index.js';
import type { AttachedTab } from '../steps/index.js';

/** Longest the page may take to answer which secret values it holds. */
const SECRETS_TIMEOUT_MS = 1_000;

/**
 * Issue 22 item 2: a value secret in one place is masked in every output of this answer and the
 * next. The values this command marked are kept in the page (our isolated world, for the
 * document's life); the values its secret fields hold and those kept by earlier commands are
 * marked here, before the answer is assembled and masked (output.ts).
 */
export async function exchangeSecrets(tab: AttachedTab, mark: number): Promise<void> {
  try {
    const held = await tab.page
      .scopeAt(undefined, Deadline.after(SECRETS_TIMEOUT_MS))
      .call((rt, marked) => rt.secretValues.exchangeSecrets(marked), fieldSecrets(mark), { what: 'the secret values' });
    for (const v of held) markSecret(v);
  } catch {
    // A page that does not answer: what this command marked is still masked in its answer.
  }
}
