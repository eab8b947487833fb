// Open banking, embedded: username and password, then a one-time code in one supplemental round.
import { checkCode, checkUsername, type Script } from './flow.js';

export const embeddedFlow: Script = async (f) => {
  checkUsername(f, { password: true });
  const answers = await f.ask([
    {
      name: 'otp',
      description: 'One-time code',
      helpText: 'Enter the code the bank sent by SMS (in the sandbox: any 4 to 8 digits except 000000).',
      hint: '123456',
      numeric: true,
      minLength: 4,
      maxLength: 8,
      pattern: '^[0-9]{4,8}$',
      patternError: 'The code is 4 to 8 digits.',
      masked: false,
      optional: false,
    },
  ]);
  checkCode(f, answers.otp, 'one-time code');
};
