// Decoupled: the person confirms in the bank's app on another device; the credentials stay in
// AUTHENTICATING with a status message meanwhile (humanDelay), then the username decides.
import { checkUsername, type Script } from './flow.js';

export const decoupledFlow: Script = async (f) => {
  f.payload("Open your bank's app on your phone and confirm the login.");
  await f.wait(f.humanDelay);
  checkUsername(f);
};
