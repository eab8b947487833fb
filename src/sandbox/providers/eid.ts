// Mobile eID: AWAITING_MOBILE_BANKID_AUTHENTICATION with a UUID autostart token while the person signs
// in the app (humanDelay), then the username decides; the failing variants always fail.
import { checkUsername, failIfFailing, type Script } from './flow.js';

export const eidFlow: Script = async (f) => {
  await f.eid();
  failIfFailing(f);
  checkUsername(f);
};
