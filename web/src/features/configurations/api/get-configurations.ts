// GET /api/domains/:id/csp-configurations: a domain's saved configurations and where its reports go.
import { type ConfigurationList, configurationListSchema } from '@csp/shared/schemas/configuration';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, apiGet, pathParam } from '@/lib/api-client';

export const configurationsQueryKey = (domainId: string) =>
  ['domains', domainId, 'csp-configurations'] as const;

export async function getConfigurations(domainId: string): Promise<ConfigurationList> {
  const body = await apiGet(
    api.domains[':id']['csp-configurations'].$get({ param: { id: pathParam(domainId) } }),
  );
  // A 401 on a read is an empty result (spec section 7); the route guard handles the sign-in.
  return body === null ? { configurations: [], reportEndpoint: '' } : configurationListSchema.parse(body);
}

export const configurationsQueryOptions = (domainId: string) =>
  queryOptions({ queryKey: configurationsQueryKey(domainId), queryFn: () => getConfigurations(domainId) });

export function useConfigurations(domainId: string) {
  return useQuery(configurationsQueryOptions(domainId));
}
