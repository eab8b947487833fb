// Two codes in two prompts (spec 2.2). The rounds exercise every kind of field a client meets:
// an immutable value shown, hint and helpText, numeric with min/max length and a pattern, a masked
// code, and an optional field.
import { checkCode, checkUsername, type Script } from './flow.js';

export const multiSupplementalFlow: Script = async (f) => {
  checkUsername(f);
  const first = await f.ask([
    {
      name: 'challenge',
      description: 'Challenge',
      value: '4711',
      immutable: true,
      helpText: 'Type this challenge into your card reader.',
    },
    {
      name: 'code1',
      description: 'First code',
      hint: '1234',
      helpText: 'The response code your card reader shows (in the sandbox: 4 to 8 digits, 000000 fails).',
      numeric: true,
      minLength: 4,
      maxLength: 8,
      pattern: '^[0-9]{4,8}$',
      patternError: 'The code is 4 to 8 digits.',
    },
  ]);
  checkCode(f, first.code1, 'first code');
  const second = await f.ask([
    {
      name: 'code2',
      description: 'Second code',
      helpText: 'The code from the SMS the bank just sent.',
      numeric: true,
      masked: true,
      sensitive: true,
      minLength: 4,
      maxLength: 8,
      pattern: '^[0-9]{4,8}$',
      patternError: 'The code is 4 to 8 digits.',
    },
    {
      name: 'deviceName',
      description: 'Name this device (optional)',
      optional: true,
      maxLength: 32,
    },
  ]);
  checkCode(f, second.code2, 'second code');
};
