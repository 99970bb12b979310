// PUT /api/domains/:id/schedule: saves the schedule with its crawl settings; the answer is the new view.
import type { ScheduleInput } from '@csp/shared/schemas/schedule';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest, pathParam } from '@/lib/api-client';
import { scheduleQueryKey } from './get-schedule';

export function useUpdateSchedule(domainId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ScheduleInput) =>
      apiRequest(api.domains[':id'].schedule.$put({ param: { id: pathParam(domainId) }, json: input })),
    onSuccess: (view) => queryClient.setQueryData(scheduleQueryKey(domainId), view),
  });
}
