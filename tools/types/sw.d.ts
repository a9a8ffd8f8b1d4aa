// Types for tsc only (make check; never shipped): the service worker's template.

/** tools/site/offline.py writes each file of the site here: [url, sha256 of its content]. */
declare const __PRECACHE__: [string, string][];
