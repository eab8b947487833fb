// The fields an item of a list may carry, by the vendor's reference (docs.tink.com, the response
// schema and its fully populated example), as dotted paths to their leaves. `--fields` accepts these
// even when no item of an answer has one: many are optional (a bank that never sends value dates,
// a transaction without a payer), and their absence from one page is not a typo.

/** One transaction of GET /data/v2/transactions ("List Transactions", the Transaction object). */
export const V2_TRANSACTION_FIELDS: readonly string[] = [
  'id',
  'accountId',
  'amount.currencyCode',
  'amount.value.scale',
  'amount.value.unscaledValue',
  'categories.pfm.id',
  'categories.pfm.name',
  'counterparties.payee.identifiers.financialInstitution.accountNumber',
  'counterparties.payee.name',
  'counterparties.payer.identifiers.financialInstitution.accountNumber',
  'counterparties.payer.name',
  'dates.booked',
  'dates.transaction',
  'dates.value',
  'descriptions.detailed.unstructured',
  'descriptions.display',
  'descriptions.original',
  'identifiers.providerTransactionId',
  'merchantInformation.merchantCategoryCode',
  'merchantInformation.merchantName',
  'providerMutability',
  'reference',
  'status',
  'types.financialInstitutionTypeCode',
  'types.type',
  'bookedDateTime',
  'transactionDateTime',
  'valueDateTime',
];

/**
 * One account of GET /data/v2/accounts (the reference's "Response: Account" schema: its example
 * leaves out balances.available, identifiers.sortCode and iban.bic).
 */
export const V2_ACCOUNT_FIELDS: readonly string[] = [
  'id',
  'name',
  'type',
  'balances.available.amount.currencyCode',
  'balances.available.amount.value.scale',
  'balances.available.amount.value.unscaledValue',
  'balances.booked.amount.currencyCode',
  'balances.booked.amount.value.scale',
  'balances.booked.amount.value.unscaledValue',
  'customerSegment',
  'dates.lastRefreshed',
  'externalAccountId',
  'financialInstitutionId',
  'identifiers.financialInstitution.accountNumber',
  'identifiers.financialInstitution.referenceNumbers',
  'identifiers.iban.bban',
  'identifiers.iban.bic',
  'identifiers.iban.iban',
  'identifiers.pan.masked',
  'identifiers.sortCode.accountNumber',
  'identifiers.sortCode.code',
];

/** One account of GET /api/v1/accounts/list (the reference's Swagger, definition Account). */
export const V1_ACCOUNT_FIELDS: readonly string[] = [
  'accountNumber',
  'balance',
  'credentialsId',
  'excluded',
  'favored',
  'id',
  'name',
  'ownership',
  'type',
  'identifiers',
  'transferDestinations',
  'details.interest',
  'details.numMonthsBound',
  'details.type',
  'details.nextDayOfTermsChange',
  'holderName',
  'closed',
  'flags',
  'accountExclusion',
  'currencyDenominatedBalance.unscaledValue',
  'currencyDenominatedBalance.scale',
  'currencyDenominatedBalance.currencyCode',
  'refreshed',
  'financialInstitutionId',
];

/**
 * One credentials object of GET /api/v1/credentials/list: the Swagger's definition Credentials, and
 * the spec's two it lacks (aggregation-api.md 2.1: providerLatency, sensitivePayload).
 */
export const V1_CREDENTIALS_FIELDS: readonly string[] = [
  'id',
  'providerName',
  'type',
  'status',
  'statusUpdated',
  'statusPayload',
  'updated',
  'fields',
  'supplementalInformation',
  'sessionExpiryDate',
  'userId',
  'providerLatency',
  'sensitivePayload',
];

/**
 * One provider of GET /api/v1/providers (and /{market}): the reference's response example (the
 * Swagger's definition Provider has a subset of it).
 */
export const V1_PROVIDER_FIELDS: readonly string[] = [
  'accessType',
  'authenticationFlow',
  'authenticationUserType',
  'capabilities',
  'credentialsType',
  'currency',
  'displayDescription',
  'displayName',
  'fields',
  'financialInstitutionId',
  'financialInstitutionName',
  'financialServices',
  'groupDisplayName',
  'hasAuthenticationOptions',
  'id',
  'images.banner',
  'images.icon',
  'keywords',
  'loginHeaderColour',
  'market',
  'multiFactor',
  'name',
  'passwordHelpText',
  'paymentConditions',
  'pisCapabilities',
  'popular',
  'rank',
  'releaseStatus',
  'status',
  'transactional',
  'type',
];

/**
 * One identity of GET /api/v1/identities and GET /data/v2/identities: the reference's example (the
 * same for both), of which the Swagger's definition Identity is a subset.
 */
export const IDENTITY_FIELDS: readonly string[] = [
  'dateOfBirth',
  'financialInstitutionId',
  'name',
  'providerName',
  'ssn',
];

/** One provider consent of GET /api/v1/provider-consents: the reference's example (detailedError only on an error). */
export const V1_PROVIDER_CONSENT_FIELDS: readonly string[] = [
  'accountIds',
  'credentialsId',
  'detailedError.details.reason',
  'detailedError.details.retryable',
  'detailedError.displayMessage',
  'detailedError.type',
  'providerName',
  'sessionExpiryDate',
  'sessionExtendable',
  'status',
  'statusUpdated',
];

/** One category of GET /api/v1/categories: the Swagger's definition Category, as its example. */
export const V1_CATEGORY_FIELDS: readonly string[] = [
  'code',
  'defaultChild',
  'id',
  'parent',
  'primaryName',
  'searchTerms',
  'secondaryName',
  'sortOrder',
  'type',
  'typeName',
];

/** One endpoint of GET /events/v2/webhook-endpoints (and the one POST creates): the reference's example. */
export const V2_WEBHOOK_ENDPOINT_FIELDS: readonly string[] = [
  'createdAt',
  'description',
  'disabled',
  'enabledEvents',
  'id',
  'secret',
  'updatedAt',
  'url',
];

const v2Amount = (path: string): string[] =>
  ['currencyCode', 'value.scale', 'value.unscaledValue'].map((p) => `${path}.${p}`);

/** One account of GET /data/v2/loan-accounts (and /{id}): the reference's example. */
export const V2_LOAN_ACCOUNT_FIELDS: readonly string[] = [
  'accountName',
  ...v2Amount('amountPaid'),
  ...v2Amount('balances.initial'),
  ...v2Amount('balances.principal'),
  'collateral.collateral',
  'dates.lastRefreshed',
  'financialInstitutionId',
  'guarantor.name',
  'id',
  'identifiers.accountNumber',
  'loanParts',
  'loanType',
  'parties',
];

/** One account of GET /data/v2/investment-accounts (and /{id}): the reference's example. */
export const V2_INVESTMENT_ACCOUNT_FIELDS: readonly string[] = [
  'accountName',
  ...v2Amount('balances.available.amount'),
  ...v2Amount('balances.booked.amount'),
  'dates.lastRefreshed',
  'financialInstitutionId',
  'financialProduct',
  ...['bond', 'equity', 'fund', 'pensionPlan', 'total'].flatMap((h) => v2Amount(`holdingValue.${h}`)),
  'id',
  'identifiers.accountNumber',
  'identifiers.iban.bban',
  'identifiers.iban.bic',
  'identifiers.iban.iban',
  'monetaryAccountIdentifiers.iban.bban',
  'monetaryAccountIdentifiers.iban.bic',
  'monetaryAccountIdentifiers.iban.iban',
  'parties',
];

/** The notification switches of a user profile (the reference's example and the Swagger). */
export const NOTIFICATION_SETTINGS: readonly string[] = [
  'balance',
  'budget',
  'doubleCharge',
  'einvoices',
  'fraud',
  'income',
  'largeExpense',
  'leftToSpend',
  'loanUpdate',
  'summaryMonthly',
  'summaryWeekly',
  'transaction',
  'unusualAccount',
  'unusualCategory',
];

/**
 * A user's profile (GET and PUT /api/v1/user/profile): the reference's example, and the Swagger's
 * UserProfile, which adds cashbackEnabled.
 */
export const USER_PROFILE_FIELDS: readonly string[] = [
  'cashbackEnabled',
  'currency',
  'locale',
  'market',
  ...NOTIFICATION_SETTINGS.map((k) => `notificationSettings.${k}`),
  'periodAdjustedDay',
  'periodMode',
  'timeZone',
];

/** The user of a token (GET and PATCH /api/v1/user): the reference's example and the Swagger's User. */
export const USER_FIELDS: readonly string[] = [
  'appId',
  'created',
  'externalUserId',
  'flags',
  'id',
  'nationalId',
  ...USER_PROFILE_FIELDS.map((p) => `profile.${p}`),
  'username',
];

const v1Amount = (path: string): string[] => ['currencyCode', 'scale', 'unscaledValue'].map((p) => `${path}.${p}`);

/**
 * A v1 transaction, as a search result carries it (POST /api/v1/search): the leaves of the
 * reference's example and the Swagger's Transaction (which adds credentialsId, payload and
 * partnerPayload; the example adds categoryType and identifiers).
 */
export const V1_TRANSACTION_FIELDS: readonly string[] = [
  'accountId',
  'amount',
  'categoryId',
  'categoryType',
  'credentialsId',
  ...v1Amount('currencyDenominatedAmount'),
  ...v1Amount('currencyDenominatedOriginalAmount'),
  'date',
  'description',
  'dispensableAmount',
  'id',
  'identifiers.providerExternalId',
  'lastModified',
  'notes',
  'originalAmount',
  'originalDate',
  'originalDescription',
  'partnerPayload',
  'parts',
  'payload',
  'pending',
  'timestamp',
  'type',
  'upcoming',
  'userId',
  'userModified',
];

const USER_PARAMETERS = 'financialServiceParameters.userParameters';

/**
 * A consent of /connectivity/v2/consents (list, get, create, revoke): the leaves of the reference's
 * examples of it (revoke's names a generic userParameters.parameter the others do not), and of the
 * userParameters its consent template's schema describes (remittanceInformation, required there).
 */
export const V2_CONSENT_FIELDS: readonly string[] = [
  'appId',
  'authorizedAt',
  'createdAt',
  'expiresAt',
  'financialService.subtype',
  'financialService.type',
  // this amount says `currency` where the data v2 amounts say currencyCode
  ...['currency', 'value.scale', 'value.unscaledValue'].map(
    (p) => `${USER_PARAMETERS}.controlParameters.maximumIndividualAmount.${p}`,
  ),
  `${USER_PARAMETERS}.controlParameters.periodicLimits`,
  `${USER_PARAMETERS}.controlParameters.validFrom`,
  `${USER_PARAMETERS}.controlParameters.validTo`,
  `${USER_PARAMETERS}.merchantId`,
  `${USER_PARAMETERS}.parameter`,
  `${USER_PARAMETERS}.payeeAccount.name`,
  `${USER_PARAMETERS}.payeeAccount.number`,
  `${USER_PARAMETERS}.payeeAccount.type`,
  `${USER_PARAMETERS}.payerAccount.holderName`,
  `${USER_PARAMETERS}.payerAccount.number`,
  `${USER_PARAMETERS}.payerAccount.type`,
  `${USER_PARAMETERS}.remittanceInformation.reference`,
  `${USER_PARAMETERS}.remittanceInformation.unstructured`,
  'financialServiceParameters.version',
  'id',
  'providerId',
  'revokedAt',
  'state',
  'userId',
];

/** An authorization of a v2 consent (list, get, create): the reference's examples. */
export const V2_CONSENT_AUTHORIZATION_FIELDS: readonly string[] = [
  'appUri',
  'callbackUri',
  'canceledAt',
  'consentId',
  'createdAt',
  'detailedError.details.reason',
  'detailedError.displayMessage',
  'detailedError.type',
  'failedAt',
  'id',
  'originatingUserIp',
  'revokedAt',
  'state',
  'succeededAt',
  'supplementalInformation.id',
  'supplementalInformation.redirectUri',
];

/** The three leaves of an amount of the finance areas (currency, scale, unscaled value). */
const AMOUNT = (prefix: string): string[] => ['currencyCode', 'scale', 'unscaledValue'].map((p) => `${prefix}.${p}`);

/**
 * A budget (GET /api/v1/budgets, and what create, update and archive answer): the leaves of the
 * reference's Budgets example (the older Swagger's Budget lacks `created`).
 */
export const BUDGET_FIELDS: readonly string[] = [
  ...AMOUNT('amount'),
  'archived',
  'created',
  'filter.accounts',
  'filter.categories',
  'filter.freeTextQuery',
  'filter.tags',
  'id',
  'name',
  'oneOffPeriodicity.end',
  'oneOffPeriodicity.start',
  'periodicityType',
  'recurringPeriodicity.periodUnit',
];

/** One period of GET /api/v1/budgets/{id}/details (`budgetPeriods`, the rows of `budgets details`). */
export const BUDGET_PERIOD_FIELDS: readonly string[] = ['end', 'start', ...AMOUNT('spentAmount')];

/**
 * One of GET /api/v1/budgets/summaries: the reference's example (the budget and its current period
 * under `budgetPeriod`), and the older Swagger's name of that period, `budgetPeriods`.
 */
export const BUDGET_SUMMARY_FIELDS: readonly string[] = [
  ...BUDGET_PERIOD_FIELDS.map((p) => `budgetPeriod.${p}`),
  ...BUDGET_PERIOD_FIELDS.map((p) => `budgetPeriods.${p}`),
  ...BUDGET_FIELDS.map((p) => `budgetSpecification.${p}`),
];

/**
 * One transaction of GET /api/v1/budgets/{id}/transactions: the reference's BudgetTransaction
 * example (the older Swagger's lacks `pending`).
 */
export const BUDGET_TRANSACTION_FIELDS: readonly string[] = [
  'accountId',
  ...AMOUNT('amount'),
  'categoryCode',
  'date',
  'description',
  ...AMOUNT('dispensableAmount'),
  'id',
  'pending',
];

/**
 * One of GET /api/v1/budgets/recommended: the reference's RecommendedBudget example, and what the
 * sandbox adds to it (the average it is based on, the periods, the periodicity type; README).
 */
export const RECOMMENDED_BUDGET_FIELDS: readonly string[] = [
  ...AMOUNT('amount'),
  'filter.accounts',
  'filter.categories',
  'filter.freeTextQuery',
  'filter.tags',
  'name',
  'recurringPeriodicity.periodUnit',
  ...AMOUNT('averageSpentAmount'),
  'basedOnPeriods',
  'periodicityType',
];

/**
 * An insight of GET /api/v1/insights (the reference's ActionableInsight example). What `data` holds
 * beyond its `type` depends on the type: --fields learns those paths from the answer.
 */
export const INSIGHT_FIELDS: readonly string[] = [
  'createdTime',
  'data.data',
  'data.type',
  'description',
  'id',
  'insightActions',
  'title',
  'type',
  'userId',
];

/**
 * An archived insight (GET /api/v1/insights/archived): the reference's ArchivedInsightDTO example,
 * whose type is `insightType`, the older Swagger's name of it, `type`, and the action taken, which
 * the sandbox adds (`insightAction`, README).
 */
export const ARCHIVED_INSIGHT_FIELDS: readonly string[] = [
  'data.data',
  'data.type',
  'dateArchived',
  'dateInsightCreated',
  'description',
  'id',
  'insightType',
  'title',
  'userId',
  'type',
  'insightAction',
];
