/* wsproto.h - medan-web: the client's side of a WebSocket read as RFC 6455
 * asks (no sockets here: bytes in, events out).
 *
 * Frames are read as they come (a payload need not be whole in memory):
 * data messages are checked and dropped (the page sends none), text as
 * UTF-8 across its fragments; control frames are kept whole for the
 * answer.  Anything the RFC says fails the connection gives WSP_FAIL with
 * the close code to send: 1002 (RSV bits without an extension, a reserved
 * opcode, an unmasked frame, a fragmented or long control frame, a
 * continuation without a message, a new message inside one, a close
 * payload of 1 byte or a code no one may send), 1007 (text or a close
 * reason that is not UTF-8), 1009 (a message over WSP_MSG_MAX).
 */
#ifndef WEB_WSPROTO_H
#define WEB_WSPROTO_H

#include <stddef.h>
#include <stdint.h>

#define WSP_MSG_MAX (1024 * 1024)   /* a data message's bytes, all fragments */

enum wsp_event { WSP_NONE = 0, WSP_PING, WSP_PONG, WSP_DATA, WSP_CLOSE, WSP_FAIL };

struct wsp {
    unsigned char hdr[14];
    size_t nhdr;
    int in_payload;
    uint64_t left;               /* payload bytes still to come */
    unsigned char mask[4];
    unsigned mpos;
    int op, fin;
    unsigned char ctl[125];      /* a control frame's payload, unmasked */
    size_t nctl;
    int msg;                     /* a fragmented message open: 0, 1 text, 2 binary */
    uint64_t msg_len;
    unsigned utf8_need;          /* UTF-8: continuation bytes still due */
    unsigned char utf8_lo, utf8_hi;   /* the range of the next one */
};

/* What one event means: WSP_PING/WSP_PONG with their payload (ctl, nctl);
 * WSP_CLOSE with code (0: none given, answer with no code); WSP_FAIL with
 * the code to close with. */
struct wsp_ev {
    enum wsp_event ev;
    unsigned code;
    const unsigned char *data;
    size_t len;
};

void wsp_init(struct wsp *p);
/* Read from buf (n bytes) up to the end of the next event: the bytes read.
 * ev->ev is WSP_NONE when buf ran out first.  After WSP_CLOSE or WSP_FAIL
 * nothing more is read. */
size_t wsp_feed(struct wsp *p, const unsigned char *buf, size_t n, struct wsp_ev *ev);
/* Is the close code one a peer may send (RFC 6455 7.4, as the Autobahn
 * suite reads it)? */
int wsp_close_code_ok(unsigned code);

#endif
