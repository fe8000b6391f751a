/* wsproto.c - the client's frames read as RFC 6455 asks (wsproto.h). */
#include "wsproto.h"

#include <string.h>

void wsp_init(struct wsp *p)
{
    memset(p, 0, sizeof *p);
}

int wsp_close_code_ok(unsigned code)
{
    return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1011) ||
           (code >= 3000 && code <= 4999);
}

/* One byte of UTF-8 through the validator: 0, or -1 when it cannot be. */
static int utf8_byte(struct wsp *p, unsigned char b)
{
    if (p->utf8_need) {
        if (b < p->utf8_lo || b > p->utf8_hi)
            return -1;
        p->utf8_need--;
        p->utf8_lo = 0x80;
        p->utf8_hi = 0xbf;
        return 0;
    }
    p->utf8_lo = 0x80;
    p->utf8_hi = 0xbf;
    if (b < 0x80)
        return 0;
    if (b >= 0xc2 && b <= 0xdf)
        p->utf8_need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
        p->utf8_need = 2;
        if (b == 0xe0)
            p->utf8_lo = 0xa0;              /* no overlong forms */
        else if (b == 0xed)
            p->utf8_hi = 0x9f;              /* no surrogates */
    } else if (b >= 0xf0 && b <= 0xf4) {
        p->utf8_need = 3;
        if (b == 0xf0)
            p->utf8_lo = 0x90;
        else if (b == 0xf4)
            p->utf8_hi = 0x8f;              /* nothing past U+10FFFF */
    } else
        return -1;
    return 0;
}

static size_t fail(struct wsp_ev *ev, unsigned code, size_t used)
{
    ev->ev = WSP_FAIL;
    ev->code = code;
    return used;
}

/* The header is whole in p->hdr: check it and set up the payload.
 * 0, or the close code it fails with. */
static unsigned header(struct wsp *p, uint64_t len)
{
    int op = p->hdr[0] & 0x0f, control = op >= 8;
    if (p->hdr[0] & 0x70)
        return 1002;                            /* RSV: no extension agreed */
    if (!(op <= 2 || (op >= 8 && op <= 10)))
        return 1002;                            /* a reserved opcode */
    if (!(p->hdr[1] & 0x80))
        return 1002;                            /* a client frame is masked */
    if (control && (!p->fin || len > 125))
        return 1002;
    if (op == 0 && !p->msg)
        return 1002;                            /* continuation of nothing */
    if ((op == 1 || op == 2) && p->msg)
        return 1002;                            /* a new message inside one */
    if (!control) {
        if (op)
            p->msg = op, p->msg_len = 0, p->utf8_need = 0;
        p->msg_len += len;
        if (p->msg_len > WSP_MSG_MAX)
            return 1009;
    }
    p->op = op;
    p->left = len;
    p->nctl = 0;
    p->mpos = 0;
    return 0;
}

/* The frame's payload is all read: its event (WSP_NONE for a data frame
 * that does not end its message). */
static void frame_done(struct wsp *p, struct wsp_ev *ev)
{
    ev->ev = WSP_NONE;
    ev->data = p->ctl;
    ev->len = p->nctl;
    if (p->op == 9)
        ev->ev = WSP_PING;
    else if (p->op == 10)
        ev->ev = WSP_PONG;
    else if (p->op == 8) {
        if (p->nctl == 1) {
            ev->ev = WSP_FAIL;
            ev->code = 1002;
            return;
        }
        ev->ev = WSP_CLOSE;
        ev->code = 0;
        if (p->nctl >= 2) {
            unsigned code = (unsigned)p->ctl[0] << 8 | p->ctl[1];
            p->utf8_need = 0;
            for (size_t i = 2; i < p->nctl; i++)
                if (utf8_byte(p, p->ctl[i]) < 0) {
                    ev->ev = WSP_FAIL;
                    ev->code = 1007;
                    return;
                }
            if (p->utf8_need) {
                ev->ev = WSP_FAIL;
                ev->code = 1007;
                return;
            }
            if (!wsp_close_code_ok(code)) {
                ev->ev = WSP_FAIL;
                ev->code = 1002;
                return;
            }
            ev->code = code;
        }
    } else if (p->fin) {                        /* a data message ends */
        if (p->msg == 1 && p->utf8_need) {
            ev->ev = WSP_FAIL;
            ev->code = 1007;
            return;
        }
        p->msg = 0;
        ev->ev = WSP_DATA;
    }
}

size_t wsp_feed(struct wsp *p, const unsigned char *buf, size_t n, struct wsp_ev *ev)
{
    size_t i = 0;
    ev->ev = WSP_NONE;
    while (i < n) {
        if (!p->in_payload) {
            size_t need = 2;
            uint64_t len;
            unsigned code;
            p->hdr[p->nhdr++] = buf[i++];
            if (p->nhdr >= 2) {
                unsigned l7 = p->hdr[1] & 0x7f;
                need = 2 + (l7 == 126 ? 2 : l7 == 127 ? 8 : 0) + 4;
            }
            if (p->nhdr == 1) {
                /* the first byte alone tells a bad frame: fail at once */
                int op = p->hdr[0] & 0x0f;
                if ((p->hdr[0] & 0x70) || !(op <= 2 || (op >= 8 && op <= 10)))
                    return fail(ev, 1002, i);
            }
            if (p->nhdr == 2 && (!(p->hdr[1] & 0x80) ||
                                 ((p->hdr[0] & 0x0f) >= 8 && (p->hdr[1] & 0x7f) > 125)))
                return fail(ev, 1002, i);       /* unmasked; a long control frame */
            if (p->nhdr < need)
                continue;
            p->fin = (p->hdr[0] & 0x80) != 0;
            len = p->hdr[1] & 0x7f;
            if (len == 126)
                len = (uint64_t)p->hdr[2] << 8 | p->hdr[3];
            else if (len == 127) {
                len = 0;
                for (int k = 0; k < 8; k++)
                    len = len << 8 | p->hdr[2 + k];
                if (len >> 63)
                    return fail(ev, 1002, i);
            }
            memcpy(p->mask, p->hdr + need - 4, 4);
            p->nhdr = 0;
            if ((code = header(p, len)) != 0)
                return fail(ev, code, i);
            p->in_payload = 1;
        }
        while (i < n && p->left) {
            unsigned char b = buf[i++] ^ p->mask[p->mpos++ & 3];
            p->left--;
            if (p->op >= 8)
                p->ctl[p->nctl++] = b;
            else if (p->msg == 1 && utf8_byte(p, b) < 0)
                return fail(ev, 1007, i);       /* fail fast: invalid text */
        }
        if (p->left)
            break;
        p->in_payload = 0;
        frame_done(p, ev);
        if (ev->ev != WSP_NONE)
            return i;
    }
    return i;
}
