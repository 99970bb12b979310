// The JSON body of every error answer of the API (DESIGN.md section 3).
import * as z from 'zod';

export const errorBodySchema = z.object({
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
