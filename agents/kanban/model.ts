// The kanban agent's records as the store returns them, and the owner every query is scoped to.

/** Whose data a request touches: the hub-verified sender, never a field of the request. */
export interface Owner {
  tenantId: string;
  agentId: string;
}

export interface Board {
  id: string;
  name: string;
  slug: string;
  createdAt: Date;
}

export interface Lane {
  id: string;
  boardId: string;
  name: string;
  /** 10, 20, 30 … in board order. */
  position: number;
  isDone: boolean;
  wipLimit: number | null;
}

export interface Card {
  id: string;
  boardId: string;
  laneId: string;
  title: string;
  description: string;
  dueAt: Date | null;
  /** 0 (most urgent) … 5, or none. */
  priority: number | null;
  labels: string[];
  sourceRef: string | null;
  completedAt: Date | null;
  completedFromLaneId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const CardEventKinds = {
  created: 'created',
  updated: 'updated',
  moved: 'moved',
  completed: 'completed',
  uncompleted: 'uncompleted',
  deleted: 'deleted',
} as const;
export type CardEventKind = (typeof CardEventKinds)[keyof typeof CardEventKinds];

export interface CardEvent {
  kind: CardEventKind;
  details: Record<string, unknown>;
  at: Date;
}

/** A lane with its live card count, for board views. */
export interface LaneWithCount extends Lane {
  cardCount: number;
}

/** A card with the names a listing shows beside it. */
export interface ListedCard extends Card {
  laneName: string;
  boardSlug: string;
}
