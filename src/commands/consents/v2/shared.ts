// Shared by the `consents v2` verbs: the columns of a consent and of an authorization.
import type { Column, RenderSpec } from '../../../output/render.js';
import { V2_CONSENT_AUTHORIZATION_FIELDS, V2_CONSENT_FIELDS } from '../../../contract/item-fields.js';
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

/** A consent's columns and the fields --fields takes on any answer. */
export const CONSENT_VIEW = { columns: CONSENT_COLUMNS, declared: V2_CONSENT_FIELDS } satisfies RenderSpec;

export const AUTHORIZATION_COLUMNS: Column[] = [
  { header: 'id', path: 'id' },
  { header: 'consent', path: 'consentId' },
  { header: 'state', path: 'state' },
  { header: 'redirectUri', path: 'supplementalInformation.redirectUri' },
  { header: 'error', path: 'detailedError.displayMessage' },
  { header: 'created', path: 'createdAt' },
];

/** An authorization's columns and the fields --fields takes on any answer. */
export const AUTHORIZATION_VIEW = {
  columns: AUTHORIZATION_COLUMNS,
  declared: V2_CONSENT_AUTHORIZATION_FIELDS,
} satisfies RenderSpec;
