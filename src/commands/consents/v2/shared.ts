// Shared by the `consents v2` verbs: the columns of a consent and of an authorization.
import type { Column } from '../../../output/render.js';
import { v2Money } from '../../accounts/v2-cells.js';

export const CONSENT_COLUMNS: Column[] = [
  { header: 'id', path: 'id' },
  { header: 'state', path: 'state' },
  { header: 'provider', path: 'providerId' },
  { header: 'user', path: 'userId' },
  { header: 'subtype', path: 'financialService.subtype' },
  {
    header: 'maxAmount',
    path: 'financialServiceParameters.userParameters.controlParameters.maximumIndividualAmount',
    format: (v) => v2Money(v),
    money: true,
  },
  { header: 'created', path: 'createdAt' },
  { header: 'authorized', path: 'authorizedAt' },
  { header: 'revoked', path: 'revokedAt' },
];

export const AUTHORIZATION_COLUMNS: Column[] = [
  { header: 'id', path: 'id' },
  { header: 'consent', path: 'consentId' },
  { header: 'state', path: 'state' },
  { header: 'redirectUri', path: 'supplementalInformation.redirectUri' },
  { header: 'error', path: 'detailedError.displayMessage' },
  { header: 'created', path: 'createdAt' },
];
