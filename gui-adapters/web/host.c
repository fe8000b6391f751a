/* host.c - medan-web: the Host header checked strictly (host.h). */
#include "host.h"

#include <string.h>

int web_host_valid(const char *host, size_t *name_len)
{
    size_t k;
    const char *p;
    if (host[0] == '[') {
        k = strspn(host + 1, "0123456789abcdefABCDEF:.");
        if (k < 2 || host[1 + k] != ']')
            return 0;
        k += 2;                                  /* the brackets */
    } else {
        k = strspn(host, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.");
        if (k == 0 || k > 253 || host[0] == '.' || host[0] == '-')
            return 0;
    }
    p = host + k;
    if (*p == ':') {
        size_t d = strspn(p + 1, "0123456789");
        long port = 0;
        if (d == 0 || d > 5 || p[1 + d] != '\0')
            return 0;
        for (size_t i = 1; i <= d; i++)
            port = port * 10 + (p[i] - '0');
        if (port < 1 || port > 65535)
            return 0;
    } else if (*p != '\0')
        return 0;
    *name_len = k;
    return 1;
}
