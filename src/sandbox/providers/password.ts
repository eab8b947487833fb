// Username and password: checked at once.
import { checkUsername, type Script } from './flow.js';

export const passwordFlow: Script = async (f) => {
  await f.wait(0);
  checkUsername(f, { password: true });
};
