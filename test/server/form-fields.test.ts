import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { createSharedProject, submit } from '../worker/submission-fixtures.js';

/**
 * A submit's answers checked by their field's type (docs/api.md, Submit): each bad field is
 * a 400 `invalid_request` whose `details` name it, and nothing is stored.
 */
let server: TestServer;
let owner: TestPerson;
let share: { projectId: string; token: string };

const FIELDS = [
  { id: 'name', label: 'Full name', type: 'text', required: true, maxLength: 20 },
  { id: 'email', label: 'E-mail', type: 'email', required: true },
  { id: 'phone', label: 'Phone', type: 'tel' },
  { id: 'quantity', label: 'Quantity', type: 'number', min: 1, max: 10, step: 1 },
  { id: 'finish', label: 'Finish', type: 'select', options: [{ value: 'matte', label: 'Matte' }, 'gloss'] },
  { id: 'terms', label: 'I accept the terms', type: 'checkbox', required: true },
  { id: 'notes', label: 'Notes', type: 'textarea', maxLength: 50 },
];
const VALID = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '+44 20 7946 0958',
  quantity: 2,
  finish: 'gloss',
  terms: true,
  notes: 'Call after 5 pm',
};

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_SUBMIT: '1000/1m' });
  owner = await server.person('owner@form-fields.test');
  share = await createSharedProject(server, owner, { formFields: FIELDS });
});
afterAll(async () => {
  await server?.close();
});

const requestCount = async () => {
  const res = await fetch(`${server.url}/projects/${share.projectId}/requests`, { headers: owner.headers });
  expect(res.status).toBe(200);
  return (await res.json()).requests.length as number;
};

describe('submit: form fields checked by type', () => {
  it('accepts answers that fit every field', async () => {
    const res = await submit(server.url, share, { formData: VALID });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, requestId: expect.any(String) });
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    [
      'an e-mail that is no address',
      { email: 'not-an-email' },
      'email',
      'Enter an e-mail address like name@example.com.',
    ],
    [
      'a phone number with letters',
      { phone: 'call me maybe' },
      'phone',
      'Enter a phone number: digits, spaces and + ( ) - . / only.',
    ],
    ['a number above max', { quantity: 11 }, 'quantity', 'Must be at most 10.'],
    ['a number below min', { quantity: 0 }, 'quantity', 'Must be at least 1.'],
    ['a number off its step', { quantity: 2.5 }, 'quantity', 'Must be a multiple of 1.'],
    ['a number sent as text', { quantity: 'two' }, 'quantity', 'Enter a number.'],
    ['a select answer outside its options', { finish: 'chrome' }, 'finish', 'Choose one of the options.'],
    ['a checkbox that is not a boolean', { terms: 'yes' }, 'terms', 'Must be ticked or not (true or false).'],
    ['an unticked required checkbox', { terms: false }, 'terms', 'Please fill in I accept the terms.'],
    ['a text past its maxLength', { notes: 'x'.repeat(51) }, 'notes', 'Use at most 50 characters.'],
    ['a text field given a number', { name: 42 }, 'name', 'Enter text.'],
  ])('refuses %s with 400 invalid_request naming the field', async (_case, answers, id, message) => {
    const before = await requestCount();
    const res = await submit(server.url, share, { formData: { ...VALID, ...answers } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ success: false, error: 'invalid_request' });
    expect(body.details).toEqual([{ field: `body.formData.${id}`, message }]);
    expect(body.message).toContain(id);
    expect(await requestCount()).toBe(before);
  });

  it('names every bad field at once, in the form order', async () => {
    const res = await submit(server.url, share, {
      formData: { ...VALID, email: 'ada@localhost', quantity: 100, finish: 'chrome' },
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.details.map((detail: { field: string }) => detail.field)).toEqual([
      'body.formData.email',
      'body.formData.quantity',
      'body.formData.finish',
    ]);
  });
});
