// How long a policy header may be where it is sent. Apart from serialize.ts (and its zod schemas): the crawl
// limits, which every crawl form reads, take their default budget from here.

/** CloudFront response-headers policies reject a Content-Security-Policy value longer than this. */
export const CLOUDFRONT_CSP_MAX = 1783;
/**
 * Above this, nginx in front of an app (default proxy_buffer_size of one page, 4 KB or 8 KB, for all the
 * upstream's response headers) answers 502 "upstream sent too big header".
 */
export const NGINX_PROXY_BUFFER = 4096;
