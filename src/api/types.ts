/**
 * Types of the XFlow cross-chain swap export API, as the spec
 * (shared/api/export-api.md) and the vendor's public docs define them.
 * Every other module takes its API shapes from here.
 */

/** ISO 8601 timestamp string, kept exactly as the API sent it. */
export type DateTimeString = string;

export const IN_OUT_DOLLAR_STATUSES = ['Unprocessed', 'NotFound', 'MismatchDetected', 'OK'] as const;
export type InOutDollarStatus = (typeof IN_OUT_DOLLAR_STATUSES)[number];

export const BRIDGE_STATUSES = ['Operational', 'Warning', 'Malfunction'] as const;
export type BridgeStatus = (typeof BRIDGE_STATUSES)[number];

/** Values of the `Filter` query parameter; the server default is `Withdrawn`. */
export const DATE_RANGE_FILTERS = ['Withdrawn', 'Deposited', 'Completed', 'Updated'] as const;
export type DateRangeFilter = (typeof DATE_RANGE_FILTERS)[number];
export const DEFAULT_FILTER: DateRangeFilter = 'Withdrawn';

/** The swap time field each filter selects on. */
export const FILTER_TIME_FIELD = {
  Withdrawn: 'withdrawnAt',
  Deposited: 'depositedAt',
  Completed: 'completedAt',
  Updated: 'updatedAt',
} as const satisfies Record<DateRangeFilter, keyof Swap>;

export const TAG_TYPES = ['agg-affiliate', 'nft', 'chain-nonce'] as const;

export interface Tag {
  type: string | null;
  value: string | null;
}

export interface BalanceChange {
  account: string;
  chain: string;
  token: string;
  tokenContract: string;
  decimals: number;
  rawAmount: string;
  direction: string;
  amount: string;
}

/** TransactionSwapExported. No property beyond these appears in a swap. */
export interface Swap {
  id: string | null;
  /** @deprecated same meaning as detectedAt */
  timestamp: DateTimeString;
  depositedAt: DateTimeString;
  withdrawnAt: DateTimeString;
  detectedAt: DateTimeString;
  completedAt: DateTimeString;
  updatedAt: DateTimeString;
  bridge: string | null;
  bridgeKey: string | null;
  sourceChain: string | null;
  destinationChain: string | null;
  sourceAccount: string | null;
  destinationAccount: string | null;
  sourceInteractedWith: string | null;
  protocolKey: string | null;
  sourceProtocolAddress: string | null;
  destinationProtocolAddress: string | null;
  /** @deprecated */
  intermediateSwapId: string | null;
  sourceOtherProtocolAddresses: string[] | null;
  destinationOtherProtocolAddresses: string[] | null;
  sourceTransaction: string | null;
  destinationTransaction: string | null;
  sourceToken: string | null;
  destinationToken: string | null;
  sourceTokenContract: string | null;
  destinationTokenContract: string | null;
  depositAmount: number | null;
  withdrawnAmount: number | null;
  depositUsdAmount: number | null;
  withdrawnUsdAmount: number | null;
  usdMismatchStatus: InOutDollarStatus;
  tags: Tag[] | null;
  /** Present in the by-identifier operation. */
  balanceChanges?: BalanceChange[];
}

/** Swap fields in the spec's order: the CSV column order. */
export const SWAP_FIELDS = [
  'id',
  'timestamp',
  'depositedAt',
  'withdrawnAt',
  'detectedAt',
  'completedAt',
  'updatedAt',
  'bridge',
  'bridgeKey',
  'sourceChain',
  'destinationChain',
  'sourceAccount',
  'destinationAccount',
  'sourceInteractedWith',
  'protocolKey',
  'sourceProtocolAddress',
  'destinationProtocolAddress',
  'intermediateSwapId',
  'sourceOtherProtocolAddresses',
  'destinationOtherProtocolAddresses',
  'sourceTransaction',
  'destinationTransaction',
  'sourceToken',
  'destinationToken',
  'sourceTokenContract',
  'destinationTokenContract',
  'depositAmount',
  'withdrawnAmount',
  'depositUsdAmount',
  'withdrawnUsdAmount',
  'usdMismatchStatus',
  'tags',
  'balanceChanges',
] as const satisfies readonly (keyof Swap)[];

/** The swap fields that hold a date-time: every table and file type shows them as times. */
export const SWAP_TIME_FIELDS: ReadonlySet<string> = new Set<(typeof SWAP_FIELDS)[number]>([
  'timestamp',
  'depositedAt',
  'withdrawnAt',
  'detectedAt',
  'completedAt',
  'updatedAt',
]);

/**
 * The fields of a swap in a list export (swaps, sync): all but balanceChanges, which only the
 * by-identifier operation returns, so in a list it would be a column that is always empty.
 */
export const LIST_SWAP_FIELDS = SWAP_FIELDS.filter((field) => field !== 'balanceChanges') as readonly ListSwapField[];
export type ListSwapField = Exclude<(typeof SWAP_FIELDS)[number], 'balanceChanges'>;

/** SupportedChainExported */
export interface Chain {
  blockchainId: string | null;
  name: string | null;
  explorerUrl: string | null;
}
export const CHAIN_FIELDS = ['blockchainId', 'name', 'explorerUrl'] as const satisfies readonly (keyof Chain)[];

/** SupportedTokenExported */
export interface Token {
  symbol: string | null;
  name: string | null;
  contract: string | null;
  url: string | null;
}
export const TOKEN_FIELDS = ['symbol', 'name', 'contract', 'url'] as const satisfies readonly (keyof Token)[];

/** SupportedTokensExported */
export interface TokenPage {
  items: Token[] | null;
  totalCount: number;
}

/** Bounds of the tokens operation's query parameters. */
export const TAKE_MAX = 1000;
export const OFFSET_MAX = 100_000;

/** BridgeDto */
export interface Bridge {
  earliestSwapTimestamp: DateTimeString | null;
  latestSwapTimestamp: DateTimeString | null;
  allTimeSwapsCount: number | null;
  supportedChains: string[] | null;
  url: string | null;
  icon: string | null;
  key: string | null;
  name: string | null;
  allTimeSwapsVolume: number;
  status: BridgeStatus;
  delisted: boolean;
}
export const BRIDGE_FIELDS = [
  'earliestSwapTimestamp',
  'latestSwapTimestamp',
  'allTimeSwapsCount',
  'supportedChains',
  'url',
  'icon',
  'key',
  'name',
  'allTimeSwapsVolume',
  'status',
  'delisted',
] as const satisfies readonly (keyof Bridge)[];

/** The longest span one time-window request may cover. */
export const MAX_WINDOW_MS = 30 * 60 * 1000;

// Problem-details error bodies (section 7). All fields nullable; extra properties may appear.

export interface ProblemDetails {
  type?: string | null;
  title?: string | null;
  status?: number | null;
  detail?: string | null;
  instance?: string | null;
  [extra: string]: unknown;
}

/** 400 */
export interface DefaultValidationProblemDetails extends ProblemDetails {
  errors?: Record<string, string[]> | null;
  errorCode?: string | null;
}

/** 403 */
export interface DefaultProblemDetails extends ProblemDetails {
  errorCode?: string | null;
}

/** 403 for an account not confirmed yet */
export interface UnconfirmedProblemDetails extends DefaultProblemDetails {
  isUnconfirmed?: boolean;
}

/** 404 */
export interface HttpValidationProblemDetails extends ProblemDetails {
  errors?: Record<string, string[]> | null;
}

/** any other status */
export interface UnexpectedProblemDetails extends ProblemDetails {
  timestamp?: DateTimeString | null;
  traceId?: string | null;
}
