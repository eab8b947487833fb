// Redirect: the person logs in on the bank's own web page. The payload's links are https URLs of
// the sandbox's test bank page; the bank "redirects back" by the relayed callback, or after
// humanDelay when nobody opens it.
import { checkUsername, type Script } from './flow.js';

export const redirectFlow: Script = async (f) => {
  const approved = await f.thirdParty((state) => {
    const url = `${f.baseUrl}/sandbox/test-bank/authorize?state=${encodeURIComponent(state)}&redirect=1`;
    return {
      android: { packageName: 'com.android.chrome', requiredMinimumVersion: 0, intent: url },
      ios: { appStoreUrl: 'https://apps.apple.com/app/id000000001', scheme: 'https', deepLinkUrl: url },
      desktop: { url },
      downloadTitle: 'Log in at your bank',
      downloadMessage: "Open the link to log in on your bank's website.",
      upgradeTitle: 'Update your browser',
      upgradeMessage: 'Your browser is too old for the bank’s login page.',
    };
  });
  if (!approved) f.fail('AUTHENTICATION_ERROR', 'The login at the bank was cancelled.', 'USER_CANCELLED');
  checkUsername(f);
};
