/* host.h - medan-web: the Host header checked strictly. */
#ifndef WEB_HOST_H
#define WEB_HOST_H

#include <stddef.h>

/* Is `host` a Host header value of the form NAME[:PORT]: NAME a DNS name
 * (letters, digits, '-', '.'; at most 253 characters) or an IPv6 address
 * in brackets, PORT 1 to 5 digits up to 65535?  On 1 *name_len is the
 * length of NAME (with its brackets).  "[::1]evil", "localhost:abc",
 * "localhost:", "a b" and "" give 0. */
int web_host_valid(const char *host, size_t *name_len);

#endif
