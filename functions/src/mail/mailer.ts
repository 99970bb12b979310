// Sending e-mail is optional: with SMTP_URL set (smtp:// or smtps://, credentials in the URL) messages go
// through it; without it nothing is sent and the caller says so (the team owner copies the invitation link).
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

const transports = new Map<string, Transporter>();

function transportFor(url: string): Transporter {
  let t = transports.get(url);
  if (!t) {
    // Short timeouts: a slow mail server must not hold an API request for minutes.
    t = nodemailer.createTransport({
      url,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 15_000,
    });
    transports.set(url, t);
  }
  return t;
}

/** Sends one message; false when no mail server is configured. Throws when the server refuses it. */
export async function sendMail(config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>, mail: Mail): Promise<boolean> {
  if (!config.SMTP_URL) return false;
  await transportFor(config.SMTP_URL).sendMail({ from: config.MAIL_FROM, ...mail });
  return true;
}
