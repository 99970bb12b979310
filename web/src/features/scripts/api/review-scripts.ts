// The owner's review: POST …/scripts/authorize (many scripts, one justification), POST …/scripts/rules and
// DELETE …/scripts/rules/:ruleId. Each refetches the domain's inventory (lists and histories).
import type { AuthorizeScriptsInput, CreateScriptRuleInput } from '@csp/shared/schemas/script-inventory';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest, pathParam } from '@/lib/api-client';
import { scriptsQueryKey } from './get-scripts';

function useInventoryMutation<T, R>(domainId: string, call: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scriptsQueryKey(domainId) }),
  });
}

export const useAuthorizeScripts = (domainId: string) =>
  useInventoryMutation(domainId, (json: AuthorizeScriptsInput) =>
    apiRequest(api.domains[':id'].scripts.authorize.$post({ param: { id: pathParam(domainId) }, json })),
  );

export const useAddScriptRule = (domainId: string) =>
  useInventoryMutation(domainId, (json: CreateScriptRuleInput) =>
    apiRequest(api.domains[':id'].scripts.rules.$post({ param: { id: pathParam(domainId) }, json })),
  );

export const useDeleteScriptRule = (domainId: string) =>
  useInventoryMutation(domainId, (ruleId: string) =>
    apiRequest(
      api.domains[':id'].scripts.rules[':ruleId'].$delete({
        param: { id: pathParam(domainId), ruleId: pathParam(ruleId) },
      }),
    ),
  );
