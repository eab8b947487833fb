// One script per flow kind.
import type { FlowKind } from './catalogue.js';
import type { Script } from './flow.js';
import { passwordFlow } from './password.js';
import { embeddedFlow } from './embedded.js';
import { multiSupplementalFlow } from './multi-supplemental.js';
import { eidFlow } from './eid.js';
import { thirdPartyFlow } from './third-party.js';
import { redirectFlow } from './redirect.js';
import { decoupledFlow } from './decoupled.js';

export const SCRIPTS: Record<FlowKind, Script> = {
  password: passwordFlow,
  embedded: embeddedFlow,
  'multi-supplemental': multiSupplementalFlow,
  eid: eidFlow,
  'third-party': thirdPartyFlow,
  redirect: redirectFlow,
  decoupled: decoupledFlow,
};
