import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/**
 * Whether the field being resolved selects `name` among its own fields, through inline fragments
 * and fragment spreads, under any alias. A directive that might skip it still counts as selected:
 * when in doubt, the answer is yes, so a caller that skips work on "no" never skips it wrongly.
 */
export function selectsField(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>, name: string): boolean {
  const seen = new Set<string>();
  const inSet = (set: SelectionSetNode | undefined): boolean =>
    (set?.selections ?? []).some((s) => {
      if (s.kind === Kind.FIELD) return s.name.value === name;
      if (s.kind === Kind.INLINE_FRAGMENT) return inSet(s.selectionSet);
      const fragment = s.name.value;
      if (seen.has(fragment)) return false;
      seen.add(fragment);
      const definition = info.fragments[fragment];
      return definition ? inSet(definition.selectionSet) : true;
    });
  return info.fieldNodes.some((node) => inSet(node.selectionSet));
}
