import { QueryClient, QueryObserver, type QueryObserverOptions } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from './query-client';

const microtask = () => new Promise<void>((resolve) => queueMicrotask(resolve));

/** What useQuery does (useBaseQuery): the render makes the observer and reads its result; the mount subscribes. */
function renderThenMount(client: QueryClient, options: QueryObserverOptions<number>) {
  const defaulted = { ...client.defaultQueryOptions(options), _optimisticResults: 'optimistic' as const };
  const observer = new QueryObserver(client, defaulted);
  observer.getOptimisticResult(defaulted);
  return {
    mount: () => {
      const unsubscribe = observer.subscribe(() => {});
      observer.updateResult();
      return { current: observer.getCurrentResult(), unsubscribe };
    },
  };
}

function counting() {
  const calls = { count: 0 };
  const queryFn = () => {
    calls.count++;
    return new Promise<number>((resolve) => setTimeout(() => resolve(42), 20));
  };
  return { calls, queryFn };
}

describe('a query asked for by a screen', () => {
  it('is on its way before its component mounts, and the mount does not ask again', async () => {
    const client = createQueryClient();
    const { calls, queryFn } = counting();
    const view = renderThenMount(client, { queryKey: ['panel'], queryFn });
    await microtask();
    expect(calls.count).toBe(1);
    const { current, unsubscribe } = view.mount();
    expect(current.fetchStatus).toBe('fetching');
    expect(calls.count).toBe(1);
    unsubscribe();
  });

  it('waited for the mount with TanStack Query alone (what the rule changes)', async () => {
    const client = new QueryClient();
    const { calls, queryFn } = counting();
    const view = renderThenMount(client, { queryKey: ['panel'], queryFn });
    await microtask();
    expect(calls.count).toBe(0);
    view.mount().unsubscribe();
    expect(calls.count).toBe(1);
  });

  it('is not fetched when disabled, when its answer is cached, or a second time when prefetched', async () => {
    const client = createQueryClient();
    const disabled = counting();
    renderThenMount(client, { queryKey: ['off'], queryFn: disabled.queryFn, enabled: false });
    const cached = counting();
    client.setQueryData(['cached'], 7);
    renderThenMount(client, { queryKey: ['cached'], queryFn: cached.queryFn });
    const prefetched = counting();
    void client.prefetchQuery({ queryKey: ['early'], queryFn: prefetched.queryFn });
    renderThenMount(client, { queryKey: ['early'], queryFn: prefetched.queryFn });
    await microtask();
    expect([disabled.calls.count, cached.calls.count, prefetched.calls.count]).toEqual([0, 0, 1]);
  });
});
