// Third-party app: AWAITING_THIRD_PARTY_APP_AUTHENTICATION with a ThirdPartyAppAuthenticationPayload
// (android, ios and desktop blocks, download and upgrade texts). Opening the deep link (the sandbox's test
// bank page) or the relayed callback finishes it early; otherwise it takes humanDelay.
import { checkUsername, failIfFailing, type Script, type ThirdPartyPayload } from './flow.js';

export function appPayload(baseUrl: string, state: string): ThirdPartyPayload {
  const link = `${baseUrl}/sandbox/test-bank/authorize?state=${encodeURIComponent(state)}`;
  return {
    android: { packageName: 'com.sandbox.testbank', requiredMinimumVersion: 120, intent: link },
    ios: { appStoreUrl: 'https://apps.apple.com/app/id000000000', scheme: 'testbank', deepLinkUrl: link },
    desktop: { url: `${link}&desktop=1` },
    downloadTitle: 'Download Test Bank',
    downloadMessage: 'You need the Test Bank app to log in. Download it from the app store.',
    upgradeTitle: 'Update Test Bank',
    upgradeMessage: 'Your Test Bank app is too old. Update it to log in.',
  };
}

export const thirdPartyFlow: Script = async (f) => {
  const approved = await f.thirdParty((state) => appPayload(f.baseUrl, state));
  failIfFailing(f);
  if (!approved) f.fail('AUTHENTICATION_ERROR', 'The authentication was cancelled in the app.', 'USER_CANCELLED');
  checkUsername(f);
};
