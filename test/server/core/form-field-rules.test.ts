import { describe, expect, it } from 'vitest';
import { FORM_FIELD_MESSAGES } from '#core/wire/form-field-messages.js';
import { checkFormFields } from '#core/wire/form-field-rules.js';
import { readFormFields } from '#core/wire/form-fields.js';

/** The submit's form field rules (docs/api.md, Submit), shared by the server and the element. */
const fields = readFormFields([
  { id: 'name', label: 'Full name', type: 'text', required: true, maxLength: 10, minLength: 2 },
  { id: 'email', label: 'E-mail', type: 'email' },
  { id: 'phone', label: 'Phone', type: 'tel' },
  { id: 'count', label: 'Count', type: 'number', min: 1, max: 10 },
  { id: 'width', label: 'Width', type: 'number', step: 0.1 },
  { id: 'odd', label: 'Odd', type: 'number', min: 1, step: 2 },
  { id: 'finish', label: 'Finish', type: 'select', options: [{ value: 'matte', label: 'Matte' }, 'gloss'] },
  { id: 'terms', label: 'Terms', type: 'checkbox', required: true },
  { id: 'notes', label: 'Notes', type: 'textarea', maxLength: 5 },
  { id: 7, label: 'Seven', type: 'unknown-type' },
]);
const valid = { name: 'Ada', terms: true };
const check = (answers: Record<string, unknown>) =>
  checkFormFields(fields, { ...valid, ...answers }, FORM_FIELD_MESSAGES).map(({ id, rule, message }) => [
    id,
    rule,
    message,
  ]);

describe('checkFormFields', () => {
  it.each<[string, Record<string, unknown>]>([
    ['a plain address', { email: 'ada@example.com' }],
    ['an address with a plus and subdomains', { email: 'ada.l+quotes@mail.example.co.uk' }],
    ['an empty optional e-mail', { email: '' }],
    ['a phone number with separators', { phone: '+44 (0)20 7946-0958' }],
    ['a number within bounds', { count: 10 }],
    ['a step of 0.1 despite binary fractions', { width: 0.3 }],
    ['a step counted from min', { odd: 5 }],
    ['an option given as an object', { finish: 'matte' }],
    ['an option given as a string', { finish: 'gloss' }],
    ['a number given as text', { count: '3' }],
    ['a text at its length limits', { name: 'Ab', notes: '12345' }],
    ['a field id given as a number', { 7: 'text' }],
    ['answers to fields the form lacks', { unknown: { any: 'thing' } }],
  ])('accepts %s', (_case, answers) => {
    expect(check(answers)).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string, string, string]>([
    ['a missing required text', { name: undefined }, 'name', 'fieldRequired', 'Please fill in Full name.'],
    ['a blank required text', { name: '   ' }, 'name', 'fieldRequired', 'Please fill in Full name.'],
    ['an unticked required checkbox', { terms: false }, 'terms', 'fieldRequired', 'Please fill in Terms.'],
    ['a text that is not a string', { name: 42 }, 'name', 'fieldText', 'Enter text.'],
    ['a text too long', { name: 'Ada Lovelace' }, 'name', 'fieldTooLong', 'Use at most 10 characters.'],
    ['a text too short', { name: 'A' }, 'name', 'fieldTooShort', 'Use at least 2 characters.'],
    ['a textarea too long', { notes: '123456' }, 'notes', 'fieldTooLong', 'Use at most 5 characters.'],
    ['not an e-mail', { email: 'not-an-email' }, 'email', 'fieldEmail', FORM_FIELD_MESSAGES.fieldEmail],
    [
      'an e-mail without a dot in the domain',
      { email: 'ada@localhost' },
      'email',
      'fieldEmail',
      'Enter an e-mail address like name@example.com.',
    ],
    ['an e-mail with two @', { email: 'ada@b@example.com' }, 'email', 'fieldEmail', FORM_FIELD_MESSAGES.fieldEmail],
    [
      'an e-mail with a space',
      { email: 'ada lovelace@example.com' },
      'email',
      'fieldEmail',
      FORM_FIELD_MESSAGES.fieldEmail,
    ],
    [
      'an e-mail with an empty domain label',
      { email: 'ada@example..com' },
      'email',
      'fieldEmail',
      FORM_FIELD_MESSAGES.fieldEmail,
    ],
    [
      'an e-mail over 254 characters',
      { email: `${'a'.repeat(250)}@example.com` },
      'email',
      'fieldEmail',
      FORM_FIELD_MESSAGES.fieldEmail,
    ],
    [
      'an e-mail that is not a string',
      { email: ['ada@example.com'] },
      'email',
      'fieldEmail',
      FORM_FIELD_MESSAGES.fieldEmail,
    ],
    ['a phone with letters', { phone: 'call me' }, 'phone', 'fieldTel', FORM_FIELD_MESSAGES.fieldTel],
    ['a phone with too few digits', { phone: '+1' }, 'phone', 'fieldTel', FORM_FIELD_MESSAGES.fieldTel],
    ['a number as words', { count: 'three' }, 'count', 'fieldNumber', 'Enter a number.'],
    ['a 100,000-digit number as text', { count: '9'.repeat(100_000) + 'x' }, 'count', 'fieldNumber', 'Enter a number.'],
    ['a number below min', { count: 0 }, 'count', 'fieldMin', 'Must be at least 1.'],
    ['a number above max', { count: 11 }, 'count', 'fieldMax', 'Must be at most 10.'],
    ['a number off its step', { width: 0.25 }, 'width', 'fieldStep', 'Must be a multiple of 0.1.'],
    ['a number off its step from min', { odd: 4 }, 'odd', 'fieldStepFrom', 'Must be 1 plus a multiple of 2.'],
    ['a select outside its options', { finish: 'chrome' }, 'finish', 'fieldOption', 'Choose one of the options.'],
    ['a select given an object', { finish: { value: 'matte' } }, 'finish', 'fieldOption', 'Choose one of the options.'],
    ['a checkbox that is not a boolean', { terms: 'yes' }, 'terms', 'fieldCheckbox', FORM_FIELD_MESSAGES.fieldCheckbox],
  ])('refuses %s', (_case, answers, id, rule, message) => {
    expect(check(answers)).toEqual([[id, rule, message]]);
  });

  it("names every field in error, in the form's order, in the messages it is given", () => {
    const answers = { email: 'nope', name: '', count: 99 };
    const problems = checkFormFields(fields, answers, { ...FORM_FIELD_MESSAGES, fieldMax: 'Höchstens {max}.' });
    expect(problems.map((problem) => [problem.id, problem.message])).toEqual([
      ['name', 'Please fill in Full name.'],
      ['email', FORM_FIELD_MESSAGES.fieldEmail],
      ['count', 'Höchstens 10.'],
      ['terms', 'Please fill in Terms.'],
    ]);
  });

  it('ignores bounds the owner left unusable: a number field then has the bounds 0 and 1,000,000', () => {
    const loose = readFormFields([{ id: 'n', type: 'number', min: 'one', step: 0, maxLength: -1 }]);
    expect(loose[0]).toMatchObject({ min: 0, max: 1_000_000, step: undefined, maxLength: undefined });
    expect(checkFormFields(loose, { n: 3.7 }, FORM_FIELD_MESSAGES)).toEqual([]);
    expect(checkFormFields(loose, { n: -3.7 }, FORM_FIELD_MESSAGES).map((problem) => problem.rule)).toEqual([
      'fieldMin',
    ]);
  });

  it('refuses a number field value outside the default bounds', () => {
    const open = readFormFields([{ id: 'area', label: 'Area', type: 'number' }]);
    expect(checkFormFields(open, { area: 1_000_000 }, FORM_FIELD_MESSAGES)).toEqual([]);
    expect(checkFormFields(open, { area: 1_000_001 }, FORM_FIELD_MESSAGES)).toEqual([
      { id: 'area', rule: 'fieldMax', message: 'Must be at most 1000000.' },
    ]);
    expect(checkFormFields(open, { area: -1 }, FORM_FIELD_MESSAGES)).toEqual([
      { id: 'area', rule: 'fieldMin', message: 'Must be at least 0.' },
    ]);
  });

  it("reads a number field's default within its bounds, widens a default bound past a lone owner bound", () => {
    const [quantity, far, wrong, crossed] = readFormFields([
      { id: 'quantity', type: 'number', min: 1, max: 20, default: 1 },
      { id: 'far', type: 'number', min: 2_000_000 },
      { id: 'wrong', type: 'number', max: 5, default: 6 },
      { id: 'crossed', type: 'number', min: 10, max: 5 },
    ]);
    expect(quantity).toMatchObject({ min: 1, max: 20, default: 1 });
    expect(far).toMatchObject({ min: 2_000_000, max: 2_000_000 });
    expect(wrong).toMatchObject({ min: 0, max: 5 });
    expect(wrong.default).toBeUndefined();
    expect(crossed).toMatchObject({ min: 0, max: 1_000_000 });
  });

  it('gives bounds only to number fields', () => {
    const [text] = readFormFields([{ id: 'name', type: 'text', default: 3 }]);
    expect(text).toMatchObject({ min: undefined, max: undefined });
    expect(text.default).toBeUndefined();
  });
});
