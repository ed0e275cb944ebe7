import { Kind, parse, type FieldNode, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { selectsField } from './selection.js';

/** The resolve info of the query's first root field, as graphql-js hands it to a resolver. */
function infoOf(query: string): Parameters<typeof selectsField>[0] {
  const doc = parse(query);
  const operation = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const fragments = Object.fromEntries(
    doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  return { fieldNodes: [operation.selectionSet.selections[0] as FieldNode], fragments };
}

describe('selectsField', () => {
  it('finds a field selected directly, under an alias, in an inline fragment or in a fragment spread', () => {
    expect(selectsField(infoOf('{ matches { totalCount } }'), 'totalCount')).toBe(true);
    expect(selectsField(infoOf('{ matches { n: totalCount } }'), 'totalCount')).toBe(true);
    expect(selectsField(infoOf('{ matches { ... on MatchConnection { totalCount } } }'), 'totalCount')).toBe(true);
    expect(
      selectsField(
        infoOf('{ matches { ...Page } } fragment Page on MatchConnection { ...Count } fragment Count on MatchConnection { totalCount }'),
        'totalCount',
      ),
    ).toBe(true);
    expect(selectsField(infoOf('{ matches { totalCount @include(if: false) } }'), 'totalCount')).toBe(true);
  });

  it('does not find a field that is not among the selected field’s own', () => {
    expect(selectsField(infoOf('{ matches { edges { cursor } } }'), 'totalCount')).toBe(false);
    expect(selectsField(infoOf('{ matches { edges { node { totalCount: id } } } }'), 'totalCount')).toBe(false);
    expect(selectsField(infoOf('{ matches { ...Page } } fragment Page on MatchConnection { pageInfo { hasNextPage } }'), 'totalCount')).toBe(false);
    // A fragment spread twice is read once (and a cycle cannot loop).
    expect(selectsField(infoOf('{ matches { ...Page ...Page } } fragment Page on MatchConnection { edges { cursor } }'), 'totalCount')).toBe(false);
  });
});
