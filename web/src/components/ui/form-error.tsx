// A form's own error: the server's message for a refusal that concerns no single field (e.g. too many
// attempts, a failed verification), shown above the submit button.
import { Alert } from './alert';

export function FormError({ message }: { message?: string | undefined }) {
  if (!message) return null;
  return (
    <Alert tone="error" role="alert" testId="form-error">
      {message}
    </Alert>
  );
}
