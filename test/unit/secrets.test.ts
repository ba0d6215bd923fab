// Issue 15 item 4: which names and fields say "secret" — one rule (shared/secrets.ts) that the page
// and the Node side both call — and how known secrets are kept out of every answer.
import { describe, expect, it } from 'vitest';
import { isSecretField, isSecretText, type FieldFacts } from '../../src/shared/index.js';
import { markSecret, redactSecrets } from '../../src/common/secrets.js';

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
  it.each(SECRET)('%j says secret', (text) => {
    expect(isSecretText(text)).toBe(true);
  });
  it.each(PLAIN)('%j is no secret', (text) => {
    expect(isSecretText(text)).toBe(false);
  });
});

describe('secret fields (DECISIONS: type=password, secret autocomplete hints, secret names; a search box is not one)', () => {
  const field = ({ words = '', ...facts }: Partial<Omit<FieldFacts, 'words'>> & { words?: string }) =>
    isSecretField({ type: 'text', autocomplete: '', role: 'textbox', words: () => words, ...facts });
  it('is secret by type, by an autocomplete hint or by its words', () => {
    expect(field({ type: 'password' })).toBe(true);
    expect(field({ autocomplete: 'current-password' })).toBe(true);
    expect(field({ autocomplete: 'section-a New-Password' })).toBe(true);
    expect(field({ autocomplete: 'one-time-code' })).toBe(true);
    expect(field({ autocomplete: 'cc-number' })).toBe(true);
    expect(field({ words: 'card_pin' })).toBe(true);
  });
  it('is not secret when nothing says so, nor for inputs that take no text', () => {
    expect(field({})).toBe(false);
    expect(field({ type: 'search', role: 'searchbox', words: 'q Search' })).toBe(false);
    expect(field({ autocomplete: 'email username' })).toBe(false);
    expect(field({ type: 'checkbox', words: 'remember password' })).toBe(false);
    expect(field({ type: 'date', autocomplete: 'cc-exp' })).toBe(false);
  });
  it('takes no autocomplete hint alone for a secret in a combobox or search box (issue 22 item 2)', () => {
    expect(field({ role: 'combobox', autocomplete: 'new-password', words: 'tz Time zone' })).toBe(false);
    expect(field({ type: 'search', role: 'searchbox', autocomplete: 'new-password' })).toBe(false);
    expect(field({ role: 'combobox', autocomplete: 'new-password', words: 'api token' })).toBe(true);
    expect(field({ role: 'combobox', type: 'password' })).toBe(true);
    expect(field({ role: 'textbox', autocomplete: 'new-password' })).toBe(true);
  });
  it('reads only the first 500 characters of the words', () => {
    expect(field({ words: `${'x '.repeat(260)}password` })).toBe(false);
    expect(field({ words: `${'x '.repeat(200)}password` })).toBe(true);
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
