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
