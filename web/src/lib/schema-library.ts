// The schema library, for a dynamic import that runs its module ahead of the code that builds schemas with
// it (domain-panels.tsx). One named export, not the namespace: a dynamic import of the whole package kept
// all of it (every locale), in the app's first chunk.
export { object } from 'zod';
