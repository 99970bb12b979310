// Outgoing mail (team invitations, alert e-mail): a Secrets Manager secret of its own holding JSON
// {"smtpUrl": "smtps://user:pass@host:465", "mailFrom": "CSP Generator <alerts@example.com>"}, read by
// functions/src/aws/mail-settings.ts through MAIL_SECRET_ARN. Its own secret, not a field of the app's, so
// that only the functions that send mail (the API and the schedule dispatcher) can read the mail server's
// credentials, and the others that read the app's keys cannot. Made holding an empty smtpUrl (nothing is
// mailed, as without SMTP_URL locally); the operator puts the real value in (README, "Deploy"). The template
// never changes its value afterwards, so a deploy keeps what the operator set.
import { RemovalPolicy, SecretValue } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';

/** What the secret holds until the operator fills it in: nothing secret, and no mail sent. */
export const EMPTY_MAIL_SETTINGS = { smtpUrl: '', mailFrom: '' };

export class MailSecret extends Construct {
  readonly secret: Secret;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.secret = new Secret(this, 'Secret', {
      description:
        'CSP Generator: outgoing mail (JSON {"smtpUrl": "smtps://user:pass@host:465", "mailFrom": "..."}); empty smtpUrl: no mail',
      // A placeholder without any secret in it: the operator's value replaces it and is kept.
      secretStringValue: SecretValue.unsafePlainText(JSON.stringify(EMPTY_MAIL_SETTINGS)),
      // Only credentials the operator can make again: nothing is lost with the stack.
      removalPolicy: RemovalPolicy.DESTROY,
    });
  }
}
