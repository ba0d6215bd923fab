// Issue 15 item 4: which names say "secret" — the page's rule (injected/aria-name.ts) and the Node
// side's (common/secrets.ts) are one rule written twice; they must agree on every case.
import { describe, expect, it } from 'vitest';
import { isSecretText } from '../../src/injected/aria-name.js';
import { looksSensitive, markSecret, redactSecrets } from '../../src/common/secrets.js';

const SECRET = [
  'password',
  'Password',
  'user_password',
  'newPassword',
  'passwd',
  'passcode',
  'pwd',
  '#pass',
  'pass',
  'secret',
  'Client secret',
  'client_secret',
  'token',
  'access_token',
  'authToken',
  'csrf-token',
  'otp',
  'OTPCode',
  'otp_code',
  'One-time code',
  'one time password',
  'verification code',
  '2fa',
  'mfa code',
  'cvc',
  'CVV',
  'cvv2',
  'Security code',
  'csc',
  'pin',
  'PIN',
  'cardPin',
  'pin-code',
  'api key',
  'API key',
  'apiKey',
  'api_key',
  'x-api-key',
  'apikey',
  'card number',
  'Card number',
  'cardNumber',
  'card_number',
  'cardnumber',
  'card-num',
  'ccnum',
  'cc-number',
  'iban',
  'ssn',
  'auth',
  'Authorization',
];
const PLAIN = [
  'q',
  'search',
  'input search text',
  'Search',
  'email',
  'username',
  'shipping',
  'spinner',
  'Spinner speed',
  'author',
  'Author',
  'pinned',
  'opinion',
  'passenger',
  'bypass',
  'tokenize it',
  'card holder',
  'first name',
  'ant-input',
  'secretary',
  'pinterest',
  'compass',
  'keyboard',
  'Key',
  'monkey',
];

describe('secret field names (DECISIONS: token, api key, secret, otp, cvc/cvv, card number, pin, passwords)', () => {
  it.each(SECRET)('%j says secret, on both sides', (text) => {
    expect([isSecretText(text), looksSensitive(text)]).toEqual([true, true]);
  });
  it.each(PLAIN)('%j is no secret, on both sides', (text) => {
    expect([isSecretText(text), looksSensitive(text)]).toEqual([false, false]);
  });
});

describe('redactSecrets', () => {
  it('replaces a marked value wherever it occurs, keys too, longest first; other text stays', () => {
    markSecret('4111111111111111');
    markSecret('41111111'); // what a maxlength field kept
    const out = redactSecrets({ a: 'kept 41111111 of 4111111111111111', b: ['x', { '41111111': 'y' }], c: 3 });
    expect(out).toEqual({ a: 'kept •••• of ••••', b: ['x', { '••••': 'y' }], c: 3 });
  });
});

describe('endpoint credentials (issue 15 item 5)', () => {
  it('hides userinfo of any URL and the values of token-like query keys, keeps the rest', async () => {
    const { markEndpointSecrets } = await import('../../src/common/secrets.js');
    markEndpointSecrets(
      'wss://bob:p%40ss-Word@farm.example/chrome?token=t0k-123&apiKey=k3y-456&sig=s1g-789&stealth=true&launch=abc',
    );
    const shown = redactSecrets({
      m: 'Cannot connect to wss://bob:p%40ss-Word@farm.example/chrome?token=t0k-123&apiKey=k3y-456&sig=s1g-789&stealth=true&launch=abc',
      p: 'p@ss-Word',
    });
    expect(shown).toEqual({
      m: 'Cannot connect to wss://••••@farm.example/chrome?token=••••&apiKey=••••&sig=••••&stealth=true&launch=abc',
      p: '••••',
    });
    expect(redactSecrets('see http://user:pw@h.example/x and mailto:a@b.example')).toBe(
      'see http://••••@h.example/x and mailto:a@b.example',
    );
  });
});
