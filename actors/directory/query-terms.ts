// Which lexemes a match must hold, read off a query's tree: the inverted index starts from the
// smallest such group, instead of testing every agent. A group is a list of terms of which every
// matching document holds at least one; a query can give several (an AND of them).
import type { TsQuery } from './text-search.js';

export interface QueryTerm {
  readonly lexeme: string;
  readonly prefix: boolean;
}

/** Groups every match satisfies; empty when nothing narrows it (e.g. `!x`: test every agent). */
export function requiredTermGroups(q: TsQuery): QueryTerm[][] {
  if (q.kind === 'and') return [...requiredTermGroups(q.left), ...requiredTermGroups(q.right)];
  const any = anyOf(q);
  return any === null ? [] : [any];
}

/** Terms of which every match holds one, or null when a match may hold none of them. */
function anyOf(q: TsQuery): QueryTerm[] | null {
  switch (q.kind) {
    case 'term':
      return [{ lexeme: q.lexeme, prefix: q.prefix }];
    case 'or': {
      const left = anyOf(q.left);
      const right = left === null ? null : anyOf(q.right);
      return left === null || right === null ? null : [...left, ...right];
    }
    case 'and': {
      const left = anyOf(q.left);
      const right = anyOf(q.right);
      if (left === null) return right;
      if (right === null) return left;
      return left.length <= right.length ? left : right;
    }
    case 'not':
      return null;
    default: {
      const never: never = q;
      return never;
    }
  }
}
