// formState, validate and submit on a form with every input type: exact field states (passwords
// masked), validity read without side effects, and submit's real effects — the page's handler ran,
// the browser navigated — or, for an invalid form, nothing sent and the fields named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type CliResult, type Harness } from './harness.js';

let h: Harness;
let tab: string;
beforeAll(async () => {
  h = await startHarness();
  tab = await h.open('form-all.html');
});
afterAll(async () => {
  await h?.close();
});

const run = (steps: unknown[], on = tab) => h.cli({ tab: on, steps, stopOnError: false });
const output = (r: CliResult, i = 0) => r.out.steps[i].output;

describe('formState', () => {
  it('lists every kind of field with label, value and validity; passwords masked, hidden inputs and buttons left out', async () => {
    const r = await run([{ formState: '#all' }]);
    expect(r.out.status).toBe('ok');
    expect(r.out.screenshot).toBeUndefined();
    const s = output(r);
    expect(s.valid).toBe(false);
    expect(s.fieldCount).toBe(22);
    expect(s.fields).toEqual([
      {
        selector: '#t-text',
        name: 'name',
        type: 'text',
        label: 'Name',
        value: '',
        required: true,
        valid: false,
        message: 'Please fill out this field.',
      },
      {
        selector: '#t-email',
        name: 'email',
        type: 'email',
        label: 'Email',
        value: '',
        required: true,
        valid: false,
        message: 'Please fill out this field.',
      },
      { selector: '#t-pass', name: 'password', type: 'password', label: 'Password', value: '••••', valid: true }, // a secret: not even its length (issue 15)
      { selector: 'input[name="age"]', name: 'age', type: 'number', label: 'Age', value: '30', valid: true },
      { selector: '#t-tel', name: 'tel', type: 'tel', label: 'Phone', value: '', valid: true },
      { selector: 'input[name="site"]', name: 'site', type: 'url', label: 'Website', value: '', valid: true },
      { selector: 'input[name="find"]', name: 'find', type: 'search', label: 'Search', value: '', valid: true },
      { selector: 'input[name="date"]', name: 'date', type: 'date', label: 'Date', value: '2024-05-01', valid: true },
      { selector: 'input[name="time"]', name: 'time', type: 'time', label: 'Time', value: '', valid: true },
      { selector: 'input[name="when"]', name: 'when', type: 'datetime-local', label: 'When', value: '', valid: true },
      { selector: 'input[name="month"]', name: 'month', type: 'month', label: 'Month', value: '', valid: true },
      { selector: 'input[name="week"]', name: 'week', type: 'week', label: 'Week', value: '', valid: true },
      {
        selector: 'input[name="colour"]',
        name: 'colour',
        type: 'color',
        label: 'Colour',
        value: '#ff0000',
        valid: true,
      },
      { selector: 'input[name="volume"]', name: 'volume', type: 'range', label: 'Volume', value: '3', valid: true },
      {
        selector: 'input[name="terms"]',
        name: 'terms',
        type: 'checkbox',
        label: 'I agree',
        value: 'yes',
        checked: false,
        required: true,
        valid: false,
        message: 'Please check this box if you want to proceed.',
      },
      {
        selector: 'input[name="plan"]',
        name: 'plan',
        type: 'radio',
        label: 'Plan',
        value: 'free',
        options: ['free', 'pro'],
        valid: true,
      },
      { selector: 'input[name="avatar"]', name: 'avatar', type: 'file', label: 'Avatar', value: [], valid: true },
      {
        selector: 'select[name="country"]',
        name: 'country',
        type: 'select',
        label: 'Country',
        value: 'de',
        options: ['"" (Choose)', 'fr (France)', 'de (Germany)'],
        valid: true,
      },
      {
        selector: 'select[name="tags"]',
        name: 'tags',
        type: 'select-multiple',
        label: 'Tags',
        value: ['a', 'c'],
        options: ['a', 'b', 'c'],
        valid: true,
      },
      { selector: 'textarea[name="bio"]', name: 'bio', type: 'textarea', label: 'Bio', value: 'Hello', valid: true },
      {
        selector: 'input[name="locked"]',
        name: 'locked',
        type: 'text',
        label: 'Locked',
        value: 'x',
        disabled: true,
        valid: true,
      },
      {
        selector: 'input[name="fixed"]',
        name: 'fixed',
        type: 'text',
        label: 'Fixed',
        value: 'y',
        readOnly: true,
        valid: true,
      },
    ]);
    expect(JSON.stringify(s)).not.toContain('hunter2');
    expect(JSON.stringify(s)).not.toContain('secret-token');
  });

  it('takes a field inside the form, the first form (true), or a container of fields without <form>', async () => {
    const r = await run([{ formState: { label: 'Nick' } }, { formState: true }, { formState: '#spa' }]);
    expect(output(r, 0)).toEqual({
      form: '#script-form',
      valid: false,
      fieldCount: 1,
      fields: [
        {
          selector: '#s-name',
          name: 'nick',
          type: 'text',
          label: 'Nick',
          value: '',
          required: true,
          valid: false,
          message: 'Please fill out this field.',
        },
      ],
    });
    expect(output(r, 1).fieldCount).toBe(22);
    expect(output(r, 2)).toEqual({
      valid: false,
      fieldCount: 1,
      fields: [
        {
          selector: 'input[name="loose"]',
          name: 'loose',
          type: 'text',
          label: 'Loose field',
          value: '',
          required: true,
          valid: false,
          message: 'Please fill out this field.',
        },
      ],
    });
  });
});

describe('validate', () => {
  it("gives a field's message and flags, a form's invalid fields, and fires no invalid events", async () => {
    await run([{ fill: { selector: '#t-tel', value: 'abc' } }]);
    const r = await run([
      { validate: '#t-email' },
      { validate: { label: 'Phone' } },
      { validate: 'input[name=age]' },
      { validate: '#all' },
      { validate: 'h1' },
    ]);
    expect(output(r, 0)).toEqual({
      valid: false,
      message: 'Please fill out this field.',
      validity: { valueMissing: true },
    });
    expect(output(r, 1)).toMatchObject({ valid: false, validity: { patternMismatch: true } });
    expect(output(r, 1).message).toMatch(/format/i);
    expect(output(r, 2)).toEqual({ valid: true });
    expect(output(r, 3).valid).toBe(false);
    expect(output(r, 3).invalid.map((f: { selector: string }) => f.selector)).toEqual([
      '#t-text',
      '#t-email',
      '#t-tel',
      'input[name="terms"]',
    ]);
    expect(output(r, 3).invalid[0]).toEqual({
      selector: '#t-text',
      name: 'name',
      message: 'Please fill out this field.',
      validity: ['valueMissing'],
    });
    expect(r.out.steps[4]).toMatchObject({ status: 'error', errorType: 'StepValidationError' });
    expect(r.out.steps[4].error).toMatch(/h1 "Every field" is not a form field or form/);
    expect(await h.value(tab, 'window.__invalid')).toBe(0);
    await run([{ fill: { selector: '#t-tel', value: '' } }]);
  });
});

describe('submit', () => {
  it('does not submit an invalid form: FormValidationError lists the fields, the browser shows its messages', async () => {
    const r = await run([{ submit: '#all' }]);
    expect(r.code).toBe(1);
    expect(r.out.steps[0]).toMatchObject({ status: 'error', errorType: 'FormValidationError' });
    expect(r.out.steps[0].error).toBe(
      'Form #all not submitted: 3 invalid fields: #t-text [valueMissing] "Please fill out this field."; ' +
        '#t-email [valueMissing] "Please fill out this field."; input[name="terms"] [valueMissing] "Please check this box if you want to proceed."',
    );
    expect(r.out.navigated).toBeUndefined();
    expect(await h.value(tab, 'location.pathname')).toBe('/form-all.html');
    expect(await h.value(tab, 'window.__invalid')).toBe(3); // reportValidity, as a user's click would
  });

  it("runs the page's submit handler with the default button as submitter", async () => {
    const r = await run([{ fill: { selector: '#s-name', value: 'neo' } }, { submit: '#s-name' }]);
    expect(output(r, 1)).toEqual({
      submitted: true,
      valid: true,
      form: '#script-form',
      submitter: '#script-form > button',
      handledByScript: true,
    });
    expect(await h.value(tab, '[window.__submitter, document.getElementById("saved").textContent]')).toEqual([
      'Save',
      'Saved neo',
    ]);
  });

  it('refuses a form whose submit button is disabled, and a target outside any form', async () => {
    const r = await run([{ submit: '#off-form' }, { submit: 'h1' }]);
    expect(r.out.steps[0].error).toBe(
      'Form #off-form not submitted: its submit button #off-form > button is disabled (a user could not press it either)',
    );
    expect(r.out.steps[1]).toMatchObject({ status: 'error', errorType: 'ElementNotFoundError' });
  });

  it('submits through the button named and reports the navigation', async () => {
    const r = await run([
      { fill: { '#t-text': 'Ann', '#t-email': 'a@b.co' } },
      { click: 'input[name=terms]' },
      { submit: '#send' },
    ]);
    expect(r.out.status).toBe('ok');
    const out = output(r, 2);
    expect(out).toMatchObject({ submitted: true, valid: true, form: '#all', submitter: '#send', navigated: true });
    expect(out.newUrl).toMatch(/\/page2\.html\?name=Ann&email=a%40b\.co&password=hunter2&/);
    expect(r.out.navigated).toBe(true);
    expect(await h.value(tab, 'location.pathname')).toBe('/page2.html');
  });
});
