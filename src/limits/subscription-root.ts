import { GraphQLError, Kind, OperationTypeNode, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

/**
 * `@skip` and `@include` on a subscription's root selections, which the GraphQL spec forbids
 * (Single root field, graphql-spec#860) and graphql-js 16 does not check: with a variable there
 * its own single-root-field rule throws (it collects the root fields without the variables),
 * which both transports answered as an internal error; with a literal that skips the field there
 * is no event stream left to subscribe to, and its execution does not survive that either. So
 * this runs before graphql-js's rules, on both transports (QueryLimits.validate, and on HTTP
 * `refuseWhatApolloCannotAnswer`). Returns the errors, one per such subscription.
 */
export function subscriptionRootConditionErrors(document: DocumentNode): GraphQLError[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const errors: GraphQLError[] = [];
  for (const d of document.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION || d.operation !== OperationTypeNode.SUBSCRIPTION) continue;
    if (!hasCondition(d.selectionSet, fragments, new Set())) continue;
    const name = d.name ? `Subscription "${d.name.value}"` : 'Anonymous Subscription';
    errors.push(
      new GraphQLError(`${name} must not use \`@skip\` or \`@include\` directives in the top level selection.`, {
        nodes: d,
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      }),
    );
  }
  return errors;
}

/** A selection of this set, or of a fragment it spreads or inlines (each fragment once), is conditional. */
function hasCondition(set: SelectionSetNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>, seen: Set<string>): boolean {
  for (const s of set.selections) {
    if (s.directives?.some((d) => d.name.value === 'skip' || d.name.value === 'include')) return true;
    if (s.kind === Kind.INLINE_FRAGMENT && hasCondition(s.selectionSet, fragments, seen)) return true;
    if (s.kind === Kind.FRAGMENT_SPREAD && !seen.has(s.name.value)) {
      seen.add(s.name.value);
      const fragment = fragments.get(s.name.value);
      if (fragment && hasCondition(fragment.selectionSet, fragments, seen)) return true;
    }
  }
  return false;
}
