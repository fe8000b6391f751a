/* conn.h - medan-web's connections: who gets one when the table is full.
 *
 * Every connection libmicrohttpd opens is admitted here or shut at once:
 * at most WEB_CONN_MAX live, each address its fair share (WEB_CONN_MAX
 * over the addresses present, at least WEB_CONN_SHARE_MIN, at most
 * WEB_CONN_PER_ADDR), the last WEB_CONN_RESERVE places only for an address
 * that has none.  A connection over its address's share, or one that
 * needs a place in a full table, evicts the oldest idle one (waiting for
 * a request, or a WebSocket the client has not spoken on) of the address
 * with the most; a request not whole within WEB_CONN_DEADLINE_S seconds
 * of the connection's last answer (a slow client) is shut.
 */
#ifndef WEB_CONN_H
#define WEB_CONN_H

#include <microhttpd.h>

#define WEB_CONN_MAX 256         /* live connections (WebSockets included) */
#define WEB_CONN_HARD 384        /* libmicrohttpd's own limit: room for evicted ones closing */
#define WEB_CONN_PER_ADDR 32     /* the most one address has */
#define WEB_CONN_SHARE_MIN 8     /* each address's share is at least this */
#define WEB_CONN_RESERVE 16      /* places kept for an address that has none */
#define WEB_CONN_DEADLINE_S 10   /* a request (line, headers, body) comes within it */

/* MHD_OPTION_NOTIFY_CONNECTION: admit (or shut) a new connection; forget a
 * closed one. */
void web_conn_notify(void *cls, struct MHD_Connection *c, void **socket_context,
                     enum MHD_ConnectionNotificationCode code);
/* The request's headers are in: the connection is busy answering (no
 * deadline, not idle) until web_conn_answered. */
void web_conn_busy(struct MHD_Connection *c);
/* The request is answered: the connection waits for another. */
void web_conn_answered(struct MHD_Connection *c);
/* The connection is a WebSocket now (idle until the client speaks). */
void web_conn_ws(struct MHD_Connection *c);
/* The client spoke on its WebSocket. */
void web_conn_touch(struct MHD_Connection *c);
/* The client's address as text (for the per-address games' cap). */
void web_conn_addr(struct MHD_Connection *c, char *out, size_t n);
/* Start and stop the thread that shuts connections past their deadline. */
void web_conn_start(void);
void web_conn_stop(void);
/* Connections live now, and shut by eviction or deadline so far. */
void web_conn_counts(int *live, long *evicted, long *expired);

#endif
