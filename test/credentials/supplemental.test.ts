// Reading supplementalInformation liberally, and checking answers the way the prompts do.
import { describe, expect, test } from 'vitest';
import {
  describeAccount,
  parseAnswersText,
  parseSupplemental,
  summarizeSupplemental,
  validateAnswer,
} from '../../src/flows/supplemental.js';
import { eidLinks } from '../../src/flows/connect.js';
import { runCli, tempDir } from '../helpers/cli.js';

describe('parseSupplemental', () => {
  const field = { name: 'code', description: 'Code' };
  test.each([
    ['an array', [field]],
    ['a serialized array', JSON.stringify([field])],
    ['a doubly serialized array', JSON.stringify(JSON.stringify([field]))],
    ['one field object', field],
    ['a map of fields', { code: { description: 'Code' } }],
    ['a {fields} object', { fields: [field] }],
    ['a serialized {fields} object', JSON.stringify({ fields: [field] })],
  ])('%s gives the field list', (_what, value) => {
    const r = parseSupplemental(value);
    expect(r.kind).toBe('fields');
    expect(r.kind === 'fields' && r.fields.map((f) => [f.name, f.description])).toEqual([['code', 'Code']]);
  });

  test('the eID token, the third-party payload, nothing, and what is not understood', () => {
    expect(parseSupplemental('0b3c4d5e-1111-4222-8333-444455556666')).toEqual({
      kind: 'token',
      token: '0b3c4d5e-1111-4222-8333-444455556666',
    });
    expect(parseSupplemental(JSON.stringify({ android: { intent: 'x' }, ios: { deepLinkUrl: 'y' } })).kind).toBe(
      'payload',
    );
    expect(parseSupplemental({ downloadTitle: 'Get the app' }).kind).toBe('payload');
    for (const none of [null, undefined, '', '  ', 'null']) expect(parseSupplemental(none).kind).toBe('none');
    expect(parseSupplemental('{broken').kind).toBe('unknown');
    expect(parseSupplemental(42).kind).toBe('unknown');
    expect(parseSupplemental({ a: 1 }).kind).toBe('unknown');
  });
});

describe('validateAnswer', () => {
  test('pattern (whole value) with patternError, numeric, lengths in characters, optional, checkbox; a broken pattern is ignored', () => {
    const ssn = {
      name: 'ssn',
      description: 'Personal number',
      pattern: '(19|20)[0-9]{10}',
      patternError: 'Enter 12 digits.',
    };
    expect(validateAnswer(ssn, '198410045701')).toBe(true);
    expect(validateAnswer(ssn, 'x198410045701x')).toBe('Enter 12 digits.');
    expect(validateAnswer({ name: 'n', numeric: true }, '12a')).toBe('n must be digits only');
    expect(validateAnswer({ name: 'w', description: 'Word', minLength: 3 }, 'åä')).toBe(
      'Word must be at least 3 characters',
    );
    expect(validateAnswer({ name: 'w', maxLength: 2 }, '🏦🏦')).toBe(true);
    expect(validateAnswer({ name: 'o', optional: true, minLength: 4 }, '')).toBe(true);
    expect(validateAnswer({ name: 'r', description: 'Required' }, '')).toBe('Required is required');
    expect(validateAnswer({ name: 'c', checkbox: true, pattern: 'true/false' }, 'true')).toBe(true);
    expect(validateAnswer({ name: 'c', description: 'Account', checkbox: true }, 'yes')).toBe(
      'Account: answer true or false',
    );
    expect(validateAnswer({ name: 'b', pattern: '([' }, 'anything')).toBe(true);
  });

  test("selectOptions: the answer is one of the options' values; length and pattern are for typed text", () => {
    const f = {
      name: 'm',
      description: 'Method',
      minLength: 5,
      pattern: '[a-z]{5}',
      selectOptions: [{ value: 'sms', text: 'SMS' }, { value: 'app' }, { text: 'no value' }, 'junk', { value: 7 }],
    } as unknown as Parameters<typeof validateAnswer>[0];
    expect(validateAnswer(f, 'sms')).toBe(true);
    expect(validateAnswer(f, 'app')).toBe(true);
    expect(validateAnswer(f, 'SMS')).toBe('Method: answer one of sms (SMS), app');
    expect(validateAnswer(f, '')).toBe('Method is required');
    // options with no string value leave the field free text, checked as before
    const freeText = { name: 'x', minLength: 2, selectOptions: [{ text: 'a' }] };
    expect(validateAnswer(freeText, 'a')).toBe('x must be at least 2 characters');
    expect(summarizeSupplemental(JSON.stringify([f]))).toBe('fields: m (one of sms|app)');
  });

  test('answers files and account lines; eID links', () => {
    expect(parseAnswersText('{"a": "1", "b": 2, "c": true}', 'f.json')).toEqual({ a: '1', b: '2', c: 'true' });
    expect(parseAnswersText('# x\na=1\n\nb = two=2\n', 'f.txt')).toEqual({ a: '1', b: ' two=2' });
    expect(() => parseAnswersText('{"a": {"deep": 1}}', 'f.json')).toThrow(/f.json: the answer for "a"/);
    expect(() => parseAnswersText('a=1\nnope\n', 'f.txt')).toThrow(/f.txt:2: expected name=value/);
    expect(describeAccount({ name: 'x', description: 'd', additionalInfo: 'not json' })).toBe('d');
    expect(eidLinks('tok', undefined)).toEqual({ app: 'bankid:///?autostarttoken=tok&redirect=null' });
    expect(eidLinks('tok', 'https://a.example/b?c=1').ios).toBe(
      'https://app.bankid.com/?autostarttoken=tok&redirect=https%3A%2F%2Fa.example%2Fb%3Fc%3D1',
    );
  });

  test('connect without a user is exit 2 before anything is asked or sent', async () => {
    const r = await runCli(['credentials', 'connect', '--provider', 'se-test-password'], {
      env: { BANKCTL_BASE_URL: 'http://127.0.0.1:9', BANKCTL_CONFIG_DIR: tempDir() },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/error: credentials connect acts for a user \(pass --user ID/);
  });
});
