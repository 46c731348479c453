// USAspending's award-type groups (data-sources.md "usaspending"): spending_by_award takes the codes
// of one group per request (mixing groups is a 422), and each group has its own columns: loans have
// "Loan Value" where the others have "Award Amount".
export const GROUPS = ['contracts', 'idvs', 'grants', 'loans', 'direct_payments', 'other'] as const;
export type Group = (typeof GROUPS)[number];

interface GroupDef {
  label: string;
  codes: readonly string[];
  /** The column holding the award's amount, also the sort key. */
  amount: string;
  /** The column holding the award's type. */
  type: string;
  start: string;
  end: string | undefined;
}

export const GROUP: Record<Group, GroupDef> = {
  contracts: {
    label: 'contract',
    codes: ['A', 'B', 'C', 'D'],
    amount: 'Award Amount',
    type: 'Contract Award Type',
    start: 'Start Date',
    end: 'End Date',
  },
  idvs: {
    label: 'IDV',
    codes: ['IDV_A', 'IDV_B', 'IDV_B_A', 'IDV_B_B', 'IDV_B_C', 'IDV_C', 'IDV_D', 'IDV_E'],
    amount: 'Award Amount',
    type: 'Contract Award Type',
    start: 'Start Date',
    end: 'Last Date to Order',
  },
  grants: {
    label: 'grant',
    codes: ['02', '03', '04', '05'],
    amount: 'Award Amount',
    type: 'Award Type',
    start: 'Start Date',
    end: 'End Date',
  },
  loans: {
    label: 'loan',
    codes: ['07', '08'],
    amount: 'Loan Value',
    type: 'Award Type',
    start: 'Issued Date',
    end: undefined,
  },
  direct_payments: {
    label: 'direct payment',
    codes: ['06', '10'],
    amount: 'Award Amount',
    type: 'Award Type',
    start: 'Start Date',
    end: 'End Date',
  },
  other: {
    label: 'other assistance',
    codes: ['09', '11', '-1'],
    amount: 'Award Amount',
    type: 'Award Type',
    start: 'Start Date',
    end: 'End Date',
  },
};

/** Searched when a request names no award type: what people mean by "government spending". */
export const DEFAULT_GROUPS: readonly Group[] = ['contracts', 'idvs', 'grants'];

/** The columns asked of one group (their names contain spaces, as the API spells them). */
export function fieldsOf(g: Group): string[] {
  const d = GROUP[g];
  return [
    'Award ID',
    'Recipient Name',
    'Recipient UEI',
    d.amount,
    'Awarding Agency',
    'Awarding Sub Agency',
    d.start,
    ...(d.end === undefined ? [] : [d.end]),
    'Description',
    d.type,
  ];
}

/** Award-type words of a text → groups; undefined when it names none. */
export function groupsIn(t: string): Group[] | undefined {
  const found = new Set<Group>();
  if (/\bcontracts?\b|\bprocurements?\b|\bpurchase orders?\b/i.test(t)) found.add('contracts');
  if (/\bidvs?\b|\bindefinite[- ]delivery\b|\bidiq\b|\bgwacs?\b/i.test(t)) found.add('idvs');
  if (/\bgrants?\b|\bcooperative agreements?\b/i.test(t)) found.add('grants');
  if (/\bloans?\b/i.test(t)) found.add('loans');
  if (/\bdirect payments?\b/i.test(t)) found.add('direct_payments');
  return found.size === 0 ? undefined : GROUPS.filter((g) => found.has(g));
}
