export interface CategoryRow {
  id: number;
  name: string;
  parentId?: number | null;
}

export interface CategoryNode {
  id: number;
  name: string;
  parent_id: number | null;
  children: CategoryNode[];
}

/** Nests categories under their parents; one whose parent is missing stands at the top. */
export function categoryTree(rows: readonly CategoryRow[]): CategoryNode[] {
  const nodes = new Map(rows.map((row) => [row.id, { id: row.id, name: row.name, parent_id: row.parentId ?? null, children: [] as CategoryNode[] }]));
  const roots: CategoryNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parent_id === null ? undefined : nodes.get(node.parent_id);
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}
