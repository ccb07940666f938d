import type { HandlerMap } from './types';
import type { ReadDeps } from './read-deps';
import { SearchKind } from '../../../shared/ipc/search';

export function searchReadHandlers(deps: ReadDeps): HandlerMap<'search.query'> {
  return {
    'search.query': ({ text, kinds, limit, near }) => ({
      hits: deps.cache.search.query(text, kinds ?? SearchKind.options, limit, near ?? null),
    }),
  };
}
