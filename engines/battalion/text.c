/* text.c - Battalion position strings, action tokens, board drawing.
 * The formats are documented in docs/games/battalion.md. */
#include "battalion.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/util.h"

#define POS_MAX 2048

static const char shown_chars[] = "-psv"; /* by enum bat_shown */
static const char *const phase_names[] = {"draw", "discard", "bid", "attack",
                                          "defend"};

/* ---- cards ------------------------------------------------------------- */
int bat_parse_card(const char *s, int *card)
{
    const char *r, *u;
    if (!s[0] || !s[1])
        return -1;
    r = strchr(bat_rank_chars, toupper((unsigned char)s[0]));
    u = strchr(bat_suit_chars, tolower((unsigned char)s[1]));
    if (!r || !u)
        return -1;
    *card = (int)(u - bat_suit_chars) * 13 + (int)(r - bat_rank_chars);
    return 0;
}

static void put_card(char *buf, size_t n, size_t *len, int c)
{
    buf_printf(buf, n, len, "%c%c", bat_rank_chars[bat_rank(c)],
               bat_suit_chars[bat_suit(c)]);
}

/* A set as concatenated cards in index order, "+u" for unknown cards,
 * "-" when empty. */
static void put_set(char *buf, size_t n, size_t *len, const uint8_t *set,
                    int unknown)
{
    size_t start = *len;
    for (int c = 0; c < BAT_NCARD; c++)
        for (int k = 0; k < set[c]; k++)
            put_card(buf, n, len, c);
    if (unknown > 0)
        buf_printf(buf, n, len, "+%d", unknown);
    if (*len == start)
        buf_printf(buf, n, len, "-");
}

/* Parse concatenated cards (with an optional "+u" when unk != NULL) into
 * counts (zeroed first). */
static int get_set(const char *s, uint8_t *set, int *unk, char *err,
                   size_t n, const char *what)
{
    memset(set, 0, BAT_NCARD);
    if (unk)
        *unk = 0;
    if (strcmp(s, "-") == 0)
        return 0;
    while (*s && *s != '+') {
        int c;
        if (bat_parse_card(s, &c))
            return set_err(err, n, GAME_ESYNTAX, "%s: bad card '%.2s'", what, s);
        if (++set[c] > 2)
            return set_err(err, n, GAME_EPOSITION, "%s: card %.2s more than twice",
                           what, s);
        s += 2;
    }
    if (*s == '+') {
        int64_t v;
        if (!unk)
            return set_err(err, n, GAME_ESYNTAX, "%s: unknown cards not allowed here",
                           what);
        if (parse_i64(s + 1, 0, BAT_NDECK, &v))
            return set_err(err, n, GAME_ESYNTAX, "%s: bad unknown count '%s'", what, s);
        *unk = (int)v;
    }
    return 0;
}

/* Ordered card list for the piles (bottom first). */
static int get_list(const char *s, uint8_t *list, int *cnt, char *err,
                    size_t n, const char *what)
{
    *cnt = 0;
    if (strcmp(s, "-") == 0)
        return 0;
    while (*s) {
        int c;
        if (bat_parse_card(s, &c))
            return set_err(err, n, GAME_ESYNTAX, "%s: bad card '%.2s'", what, s);
        if (*cnt >= BAT_NDECK)
            return set_err(err, n, GAME_EPOSITION, "%s: too many cards", what);
        list[(*cnt)++] = (uint8_t)c;
        s += 2;
    }
    return 0;
}

/* Split s at `sep` into at most max parts (in place). */
static int split_at(char *s, char sep, char **part, int max)
{
    int k = 0;
    part[k++] = s;
    for (; *s; s++)
        if (*s == sep) {
            if (k == max)
                return max + 1;
            *s = '\0';
            part[k++] = s + 1;
        }
    return k;
}

/* ---- position strings -------------------------------------------------- */
void bat_format_pos(const struct bat_state *st, char *buf, size_t n)
{
    size_t len = 0;
    int N = st->nseats;
    if (n)
        buf[0] = '\0';
    if (st->is_view)
        buf_printf(buf, n, &len, "view:%d", st->viewer + 1);
    else
        buf_printf(buf, n, &len, "full");
    buf_printf(buf, n, &len, " phase=%s act=%d turn=%d attacks=%d last=%c",
               phase_names[st->phase], st->act + 1, st->turn, st->attacks,
               st->last_suit == BAT_NOSUIT ? '-' : bat_suit_chars[st->last_suit]);
    buf_printf(buf, n, &len, " chips=");
    for (int s = 0; s < N; s++)
        buf_printf(buf, n, &len, "%s%d", s ? "," : "", st->chips[s]);
    buf_printf(buf, n, &len, " bids=");
    for (int s = 0; s < N; s++) {
        if (st->bid[s] < 0)
            buf_printf(buf, n, &len, "%s-", s ? "," : "");
        else if (st->bid[s] == 0)
            buf_printf(buf, n, &len, "%sp", s ? "," : "");
        else
            buf_printf(buf, n, &len, "%s%d", s ? "," : "", st->bid[s]);
    }
    buf_printf(buf, n, &len, " hands=");
    for (int s = 0; s < N; s++) {
        if (s)
            buf_printf(buf, n, &len, "/");
        put_set(buf, n, &len, st->hand[s], st->size[s] - bat_set_count(st->hand[s]));
    }
    buf_printf(buf, n, &len, " known=");
    for (int s = 0; s < N; s++) {
        if (s)
            buf_printf(buf, n, &len, "/");
        put_set(buf, n, &len, st->known[s], 0);
    }
    {
        /* the last collection discards, only once there is one */
        int any = 0;
        for (int s = 0; s < N; s++)
            any |= st->discard[s];
        if (any) {
            buf_printf(buf, n, &len, " discards=");
            for (int s = 0; s < N; s++) {
                if (s)
                    buf_printf(buf, n, &len, "/");
                if (st->discard[s])
                    put_card(buf, n, &len, st->discard[s] - 1);
                else
                    buf_printf(buf, n, &len, "-");
            }
        }
    }
    {
        /* the battles' public record, only once there is one */
        int any = 0;
        for (int s = 0; s < N; s++)
            for (int x = 0; x < 4; x++)
                any |= st->shown[s][x];
        if (any) {
            buf_printf(buf, n, &len, " shown=");
            for (int s = 0; s < N; s++) {
                if (s)
                    buf_printf(buf, n, &len, "/");
                for (int x = 0; x < 4; x++) {
                    uint8_t e = st->shown[s][x];
                    if (e)
                        buf_printf(buf, n, &len, "%c%d", shown_chars[bat_shown_kind(e)],
                                   bat_shown_drawn(e));
                    else
                        buf_printf(buf, n, &len, "-");
                }
            }
        }
    }
    buf_printf(buf, n, &len, " battle=");
    if (st->phase == BAT_DEFEND) {
        buf_printf(buf, n, &len, "%d>%d:", st->attacker + 1, st->target + 1);
        put_set(buf, n, &len, st->battle, 0);
    } else {
        buf_printf(buf, n, &len, "-");
    }
    buf_printf(buf, n, &len, " pile=");
    for (int i = 0; i < st->npile; i++)
        put_card(buf, n, &len, st->pile[i]);
    if (!st->npile)
        buf_printf(buf, n, &len, "-");
    buf_printf(buf, n, &len, " deck=");
    if (st->is_view) {
        buf_printf(buf, n, &len, "%d", st->ndeck);
    } else {
        for (int i = 0; i < st->ndeck; i++)
            put_card(buf, n, &len, st->deck[i]);
        if (!st->ndeck)
            buf_printf(buf, n, &len, "-");
        buf_printf(buf, n, &len, " rng=%016llx:%016llx:%016llx:%016llx",
                   (unsigned long long)st->rng[0], (unsigned long long)st->rng[1],
                   (unsigned long long)st->rng[2], (unsigned long long)st->rng[3]);
    }
}

enum { K_PHASE, K_ACT, K_TURN, K_ATTACKS, K_LAST, K_CHIPS, K_BIDS, K_HANDS,
       K_KNOWN, K_DISCARDS, K_SHOWN, K_BATTLE, K_PILE, K_DECK, K_RNG, K_NKEYS };
static const char *const key_names[K_NKEYS] = {
    "phase", "act", "turn", "attacks", "last", "chips", "bids", "hands",
    "known", "discards", "shown", "battle", "pile", "deck", "rng"};

/* One seat's `shown` entries: per suit c d h s, '-' or a kind letter and
 * the cards drawn since ("p0-s3-"). */
static int get_shown(const char *s, uint8_t *e, char *err, size_t n)
{
    for (int x = 0; x < 4; x++) {
        const char *k;
        int d = 0, digits = 0;
        if (*s == '-') {
            e[x] = 0;
            s++;
            continue;
        }
        k = *s ? strchr(shown_chars + 1, *s) : NULL;
        if (!k)
            return set_err(err, n, GAME_ESYNTAX,
                           "shown: per seat four entries, '-' or p|s|v and a count");
        for (s++; *s >= '0' && *s <= '9' && digits < 3; s++, digits++)
            d = d * 10 + (*s - '0');
        if (!digits)
            return set_err(err, n, GAME_ESYNTAX, "shown: a count after the letter");
        if (d >= BAT_HAND)
            return set_err(err, n, GAME_EVALUE, "shown: counts 0..%d", BAT_HAND - 1);
        e[x] = (uint8_t)((k - shown_chars) << 4 | d);
    }
    if (*s)
        return set_err(err, n, GAME_ESYNTAX,
                       "shown: per seat four entries, '-' or p|s|v and a count");
    return 0;
}

/* Is the position possible?  (After the fields are in.) */
static int validate(const struct bat_state *st, const int *unk, char *err,
                    size_t n)
{
    int N = st->nseats, total = st->npile + st->ndeck, chips = 0, hi = 0;
    int pre_battle = st->phase < BAT_ATTACK;
    uint8_t seen[BAT_NCARD] = {0};
    for (int s = 0; s < N; s++) {
        total += st->size[s];
        chips += st->chips[s];
        for (int c = 0; c < BAT_NCARD; c++) {
            if (st->known[s][c] > st->hand[s][c])
                return set_err(err, n, GAME_EPOSITION,
                               "seat %d: a known card is not in its hand", s + 1);
            if (st->is_view && s != st->viewer && st->known[s][c] != st->hand[s][c])
                return set_err(err, n, GAME_EPOSITION,
                               "view: seat %d's hand must list exactly its known cards",
                               s + 1);
            seen[c] = (uint8_t)(seen[c] + st->hand[s][c]);
        }
        if (!st->is_view && unk[s])
            return set_err(err, n, GAME_EPOSITION,
                           "a full state has no unknown cards");
        if (pre_battle && st->chips[s] != BAT_CHIPS)
            return set_err(err, n, GAME_EPOSITION,
                           "chips change only in battles");
        if (st->discard[s] && st->phase <= BAT_DISCARD && st->turn <= s)
            return set_err(err, n, GAME_EPOSITION,
                           "discards: seat %d has not discarded yet", s + 1);
        for (int x = 0; x < 4; x++)
            if (pre_battle && st->shown[s][x])
                return set_err(err, n, GAME_EPOSITION,
                               "shown: nothing is shown before the battles");
    }
    if (chips != BAT_CHIPS * N)
        return set_err(err, n, GAME_EPOSITION, "chips must add up to %d",
                       BAT_CHIPS * N);
    for (int i = 0; i < st->npile; i++)
        seen[st->pile[i]]++;
    if (!st->is_view)
        for (int i = 0; i < st->ndeck; i++)
            seen[st->deck[i]]++;
    for (int c = 0; c < BAT_NCARD; c++) {
        seen[c] = (uint8_t)(seen[c] + st->battle[c]);
        total += st->battle[c];
        if (seen[c] > 2 || (!st->is_view && seen[c] != 2))
            return set_err(err, n, GAME_EPOSITION,
                           "card %c%c appears %d times (two decks: twice)",
                           bat_rank_chars[bat_rank(c)], bat_suit_chars[bat_suit(c)],
                           seen[c]);
    }
    if (total != BAT_NDECK)
        return set_err(err, n, GAME_EPOSITION, "%d cards in play, not %d", total,
                       BAT_NDECK);
    /* Phase bookkeeping. */
    if (pre_battle ? st->attacks != 0 : st->phase == BAT_DEFEND && !st->attacks)
        return set_err(err, n, GAME_EPOSITION, "attacks do not fit the phase");
    if (st->phase <= BAT_DISCARD) {
        if (st->turn >= BAT_ROUNDS * N || st->act != st->turn % N)
            return set_err(err, n, GAME_EPOSITION,
                           "collection turn %d is seat %d's", st->turn,
                           st->turn % N + 1);
    } else if (st->turn != BAT_ROUNDS * N) {
        return set_err(err, n, GAME_EPOSITION, "turn must be %d after collection",
                       BAT_ROUNDS * N);
    }
    for (int s = 0; s < N; s++) {
        int want = BAT_HAND;
        if (st->phase == BAT_DISCARD && s == st->act)
            want = BAT_HAND + 1;
        if (st->phase == BAT_DEFEND && s == st->attacker)
            want = BAT_HAND - bat_set_count(st->battle);
        if (st->size[s] != want)
            return set_err(err, n, GAME_EPOSITION, "seat %d must hold %d cards",
                           s + 1, want);
        if (st->phase <= BAT_DISCARD ? st->bid[s] != -1
                                     : st->phase == BAT_BID ? (st->bid[s] == -1) != (s >= st->act)
                                                            : st->bid[s] == -1)
            return set_err(err, n, GAME_EPOSITION, "bids do not fit the phase");
        if (st->bid[s] > 0) {
            if (st->bid[s] <= hi)
                return set_err(err, n, GAME_EPOSITION,
                               "seat %d's bid is not higher than earlier bids", s + 1);
            hi = st->bid[s];
        }
    }
    if (st->phase < BAT_ATTACK && st->last_suit != BAT_NOSUIT)
        return set_err(err, n, GAME_EPOSITION, "no attack was made yet");
    if (st->phase >= BAT_ATTACK && (st->attacks == 0) != (st->last_suit == BAT_NOSUIT))
        return set_err(err, n, GAME_EPOSITION, "last suit and attacks disagree");
    if (st->attacks > BAT_MAX_ATTACKS)
        return set_err(err, n, GAME_EPOSITION, "more than %d attacks",
                       BAT_MAX_ATTACKS);
    if (st->phase == BAT_DEFEND) {
        int cnt = bat_set_count(st->battle);
        if (st->attacker == st->target || st->target != st->act ||
            st->attacker >= N)
            return set_err(err, n, GAME_EPOSITION, "bad battle seats");
        if (!cnt)
            return set_err(err, n, GAME_EPOSITION, "a battle needs cards");
        for (int c = 0; c < BAT_NCARD; c++)
            if (st->battle[c] && bat_suit(c) != st->last_suit)
                return set_err(err, n, GAME_EPOSITION,
                               "the battle cards must be of the last suit");
        for (int s = 0; s < N; s++)
            if (st->chips[s] == 0)
                return set_err(err, n, GAME_EPOSITION,
                               "a bankrupt seat ended the game");
    } else {
        for (int c = 0; c < BAT_NCARD; c++)
            if (st->battle[c])
                return set_err(err, n, GAME_EPOSITION, "no battle in progress");
    }
    if (st->phase == BAT_ATTACK && !bat_over(st) && !bat_can_attack(st, st->act))
        return set_err(err, n, GAME_EPOSITION,
                       "seat %d holds no card of an allowed suit", st->act + 1);
    if (st->phase == BAT_ATTACK && st->attacks == 0) {
        int first = 0;
        for (int s = 1; s < N; s++)
            if (st->bid[s] > st->bid[first])
                first = s;
        if (st->act != first)
            return set_err(err, n, GAME_EPOSITION,
                           "seat %d makes the first attack", first + 1);
    }
    /* Bids against the best suit while hands are as they were. */
    if ((st->phase == BAT_BID || st->phase == BAT_ATTACK) && st->attacks == 0)
        for (int s = 0; s < N; s++)
            if ((!st->is_view || s == st->viewer) && !unk[s] &&
                st->bid[s] > bat_best_suit_points(st->hand[s]))
                return set_err(err, n, GAME_EPOSITION,
                               "seat %d bid more than its best suit", s + 1);
    if (st->phase == BAT_DEFEND && st->attacks == 1) {
        /* the first attack was checked against the winning bid */
        int m = 0;
        for (int s = 0; s < N; s++)
            if (st->bid[s] > m)
                m = st->bid[s];
        if (bat_points(st->battle) < m)
            return set_err(err, n, GAME_EPOSITION,
                           "the first attack is below the winning bid");
    }
    if (!st->is_view && !(st->rng[0] | st->rng[1] | st->rng[2] | st->rng[3]))
        return set_err(err, n, GAME_EPOSITION, "the rng state is all zero");
    return 0;
}

int bat_parse_pos(struct bat_state *out, const char *s, char *err, size_t n)
{
    char copy[POS_MAX], *tok[K_NKEYS + 2], *val[K_NKEYS] = {0};
    char *part[BAT_MAX_SEATS + 1];
    struct bat_state st;
    int ntok, N, unk[BAT_MAX_SEATS] = {0}, rc;
    int64_t v;
    if (strlen(s) >= sizeof copy)
        return set_err(err, n, GAME_ESYNTAX, "position string too long");
    strcpy(copy, s);
    ntok = str_split(copy, tok, K_NKEYS + 2);
    if (ntok < 1)
        return set_err(err, n, GAME_ESYNTAX, "empty position");
    if (ntok > K_NKEYS + 1)
        return set_err(err, n, GAME_ESYNTAX, "too many fields");
    memset(&st, 0, sizeof st);
    if (strcmp(tok[0], "full") == 0) {
        st.is_view = 0;
    } else if (str_prefix(tok[0], "view:") &&
               !parse_i64(tok[0] + 5, 1, BAT_MAX_SEATS, &v)) {
        st.is_view = 1;
        st.viewer = (uint8_t)(v - 1);
    } else {
        return set_err(err, n, GAME_ESYNTAX,
                       "a position starts with 'full' or 'view:<seat>'");
    }
    for (int i = 1; i < ntok; i++) {
        char *eq = strchr(tok[i], '=');
        int k;
        if (!eq)
            return set_err(err, n, GAME_ESYNTAX, "field '%s' is not key=value", tok[i]);
        *eq = '\0';
        for (k = 0; k < K_NKEYS && strcmp(key_names[k], tok[i]); k++)
            ;
        if (k == K_NKEYS)
            return set_err(err, n, GAME_ESYNTAX, "unknown field '%s'", tok[i]);
        if (val[k])
            return set_err(err, n, GAME_ESYNTAX, "field '%s' twice", tok[i]);
        val[k] = eq + 1;
    }
    for (int k = 0; k < K_NKEYS; k++)
        if (!val[k] && k != K_SHOWN && k != K_DISCARDS && (k != K_RNG || !st.is_view))
            return set_err(err, n, GAME_ESYNTAX, "field '%s' missing", key_names[k]);
    if (st.is_view && val[K_RNG])
        return set_err(err, n, GAME_ESYNTAX, "a view has no rng field");

    /* chips first: they give the number of seats */
    N = split_at(val[K_CHIPS], ',', part, BAT_MAX_SEATS);
    if (N < BAT_MIN_SEATS || N > BAT_MAX_SEATS)
        return set_err(err, n, GAME_EVALUE, "chips: %d to %d seats", BAT_MIN_SEATS,
                       BAT_MAX_SEATS);
    st.nseats = (uint8_t)N;
    if (st.is_view && st.viewer >= N)
        return set_err(err, n, GAME_EVALUE, "view of seat %d of %d", st.viewer + 1, N);
    for (int i = 0; i < N; i++) {
        if (parse_i64(part[i], 0, BAT_CHIPS * BAT_MAX_SEATS, &v))
            return set_err(err, n, GAME_ESYNTAX, "chips: bad number '%s'", part[i]);
        st.chips[i] = (uint8_t)v;
    }
    for (rc = 0; rc < 5 && strcmp(phase_names[rc], val[K_PHASE]); rc++)
        ;
    if (rc == 5)
        return set_err(err, n, GAME_ESYNTAX, "phase: draw discard bid attack defend");
    st.phase = (uint8_t)rc;
    if (parse_i64(val[K_ACT], 1, N, &v))
        return set_err(err, n, GAME_EVALUE, "act: a seat 1..%d", N);
    st.act = (uint8_t)(v - 1);
    if (parse_i64(val[K_TURN], 0, BAT_ROUNDS * N, &v))
        return set_err(err, n, GAME_EVALUE, "turn: 0..%d", BAT_ROUNDS * N);
    st.turn = (uint8_t)v;
    if (parse_i64(val[K_ATTACKS], 0, BAT_MAX_ATTACKS, &v))
        return set_err(err, n, GAME_EVALUE, "attacks: 0..%d", BAT_MAX_ATTACKS);
    st.attacks = (uint16_t)v;
    if (strcmp(val[K_LAST], "-") == 0)
        st.last_suit = BAT_NOSUIT;
    else if (strlen(val[K_LAST]) == 1 && strchr(bat_suit_chars, val[K_LAST][0]))
        st.last_suit = (uint8_t)(strchr(bat_suit_chars, val[K_LAST][0]) - bat_suit_chars);
    else
        return set_err(err, n, GAME_ESYNTAX, "last: c d h s or -");
    if (split_at(val[K_BIDS], ',', part, BAT_MAX_SEATS) != N)
        return set_err(err, n, GAME_ESYNTAX, "bids: one per seat");
    for (int i = 0; i < N; i++) {
        if (strcmp(part[i], "-") == 0)
            st.bid[i] = -1;
        else if (strcmp(part[i], "p") == 0)
            st.bid[i] = 0;
        else if (!parse_i64(part[i], BAT_MIN_BID, 20, &v))
            st.bid[i] = (int8_t)v;
        else
            return set_err(err, n, GAME_EVALUE, "bids: '-', 'p' or 4..20");
    }
    if (split_at(val[K_HANDS], '/', part, BAT_MAX_SEATS) != N)
        return set_err(err, n, GAME_ESYNTAX, "hands: one per seat, '/' between");
    for (int i = 0; i < N; i++) {
        if ((rc = get_set(part[i], st.hand[i], &unk[i], err, n, "hands")))
            return rc;
        st.size[i] = (uint8_t)(bat_set_count(st.hand[i]) + unk[i]);
        if (st.size[i] > BAT_HAND + 1)
            return set_err(err, n, GAME_EPOSITION, "seat %d holds too many cards", i + 1);
    }
    if (split_at(val[K_KNOWN], '/', part, BAT_MAX_SEATS) != N)
        return set_err(err, n, GAME_ESYNTAX, "known: one per seat, '/' between");
    for (int i = 0; i < N; i++)
        if ((rc = get_set(part[i], st.known[i], NULL, err, n, "known")))
            return rc;
    if (val[K_DISCARDS]) {
        if (split_at(val[K_DISCARDS], '/', part, BAT_MAX_SEATS) != N)
            return set_err(err, n, GAME_ESYNTAX, "discards: one per seat, '/' between");
        for (int i = 0; i < N; i++) {
            int c;
            if (strcmp(part[i], "-") == 0)
                continue;
            if (strlen(part[i]) != 2 || bat_parse_card(part[i], &c))
                return set_err(err, n, GAME_ESYNTAX, "discards: a card or '-' per seat");
            st.discard[i] = (uint8_t)(c + 1);
        }
    }
    if (val[K_SHOWN]) {
        if (split_at(val[K_SHOWN], '/', part, BAT_MAX_SEATS) != N)
            return set_err(err, n, GAME_ESYNTAX, "shown: one per seat, '/' between");
        for (int i = 0; i < N; i++)
            if ((rc = get_shown(part[i], st.shown[i], err, n)))
                return rc;
    }
    if (strcmp(val[K_BATTLE], "-") != 0) {
        char *colon = strchr(val[K_BATTLE], ':'), *gt = strchr(val[K_BATTLE], '>');
        int64_t a, t;
        if (!colon || !gt || gt > colon)
            return set_err(err, n, GAME_ESYNTAX, "battle: <attacker>><target>:<cards>");
        *colon = *gt = '\0';
        if (parse_i64(val[K_BATTLE], 1, N, &a) || parse_i64(gt + 1, 1, N, &t))
            return set_err(err, n, GAME_EVALUE, "battle: seats 1..%d", N);
        st.attacker = (uint8_t)(a - 1);
        st.target = (uint8_t)(t - 1);
        if ((rc = get_set(colon + 1, st.battle, NULL, err, n, "battle")))
            return rc;
        if (st.phase != BAT_DEFEND)
            return set_err(err, n, GAME_EPOSITION, "a battle only in phase defend");
    } else if (st.phase == BAT_DEFEND) {
        return set_err(err, n, GAME_EPOSITION, "phase defend needs a battle");
    }
    {
        int cnt;
        if ((rc = get_list(val[K_PILE], st.pile, &cnt, err, n, "pile")))
            return rc;
        st.npile = (uint8_t)cnt;
        if (st.is_view) {
            if (parse_i64(val[K_DECK], 0, BAT_NDECK, &v))
                return set_err(err, n, GAME_ESYNTAX, "deck: a view gives the count");
            st.ndeck = (uint8_t)v;
        } else {
            if ((rc = get_list(val[K_DECK], st.deck, &cnt, err, n, "deck")))
                return rc;
            st.ndeck = (uint8_t)cnt;
        }
    }
    if (!st.is_view) {
        if (split_at(val[K_RNG], ':', part, 4) != 4)
            return set_err(err, n, GAME_ESYNTAX, "rng: four hex words");
        for (int i = 0; i < 4; i++) {
            char *end;
            if (!isxdigit((unsigned char)part[i][0]) || strlen(part[i]) > 16)
                return set_err(err, n, GAME_ESYNTAX, "rng: four hex words");
            st.rng[i] = strtoull(part[i], &end, 16);
            if (*end)
                return set_err(err, n, GAME_ESYNTAX, "rng: four hex words");
        }
    }
    if ((rc = validate(&st, unk, err, n)))
        return rc;
    *out = st;
    return 0;
}

/* ---- actions ----------------------------------------------------------- */
void bat_format_move(gmove m, char *buf, size_t n)
{
    size_t len = 0;
    int first = 1, kind = bat_mkind(m);
    if (n)
        buf[0] = '\0';
    switch (kind) {
    case BAT_M_DRAW_DECK: buf_printf(buf, n, &len, "draw:deck"); return;
    case BAT_M_DRAW_PILE: buf_printf(buf, n, &len, "draw:pile"); return;
    case BAT_M_DISCARD:
        buf_printf(buf, n, &len, "discard:");
        put_card(buf, n, &len, bat_mvalue(m) % BAT_NCARD);
        return;
    case BAT_M_BID: buf_printf(buf, n, &len, "bid:%d", bat_mvalue(m)); return;
    case BAT_M_PASS: buf_printf(buf, n, &len, "%s", GAME_PASS_TOKEN); return;
    case BAT_M_SURRENDER: buf_printf(buf, n, &len, "surrender"); return;
    case BAT_M_ATTACK:
        buf_printf(buf, n, &len, "attack:%d:", bat_mtarget(m) + 1);
        break;
    case BAT_M_DEFEND:
        buf_printf(buf, n, &len, "defend:");
        break;
    default:
        buf_printf(buf, n, &len, "?");
        return;
    }
    for (int r = 0; r < 13; r++)
        for (int k = 0; k < bat_mcount(m, r); k++) {
            buf_printf(buf, n, &len, "%s", first ? "" : ",");
            put_card(buf, n, &len, bat_msuit(m) * 13 + r);
            first = 0;
        }
}

/* "7h,7h,2h" -> one-suit set; returns the suit or a GAME_E* code. */
static int parse_cards(const char *s, uint8_t *set, int *suit, char *err,
                       size_t n)
{
    memset(set, 0, BAT_NCARD);
    *suit = -1;
    for (;;) {
        int c;
        if (bat_parse_card(s, &c) || (s[2] && s[2] != ','))
            return set_err(err, n, GAME_ESYNTAX, "bad card list at '%s'", s);
        if (*suit >= 0 && bat_suit(c) != *suit)
            return set_err(err, n, GAME_EILLEGAL, "all cards must be of one suit");
        *suit = bat_suit(c);
        if (++set[c] > 2)
            return set_err(err, n, GAME_EILLEGAL, "a card exists only twice");
        if (!s[2])
            return 0;
        s += 3;
    }
}

int bat_parse_move(const struct bat_state *st, const char *s, gmove *out,
                   char *err, size_t n)
{
    gmove m;
    uint8_t set[BAT_NCARD];
    int rc, suit, c;
    int64_t v;
    if (strcmp(s, "draw:deck") == 0) {
        m = bat_move(BAT_M_DRAW_DECK, 0, 0, 0);
    } else if (strcmp(s, "draw:pile") == 0) {
        m = bat_move(BAT_M_DRAW_PILE, 0, 0, 0);
    } else if (strcmp(s, GAME_PASS_TOKEN) == 0) {
        m = bat_move(BAT_M_PASS, 0, 0, 0);
    } else if (strcmp(s, "surrender") == 0) {
        m = bat_move(BAT_M_SURRENDER, 0, 0, 0);
    } else if (str_prefix(s, "discard:")) {
        if (bat_parse_card(s + 8, &c) || s[10])
            return set_err(err, n, GAME_ESYNTAX, "discard:<card>, e.g. discard:7h");
        m = bat_move(BAT_M_DISCARD, 0, 0, c);
    } else if (str_prefix(s, "bid:")) {
        if (parse_i64(s + 4, 0, 999, &v))
            return set_err(err, n, GAME_ESYNTAX, "bid:<points>, e.g. bid:5");
        if (v > 20)
            return set_err(err, n, GAME_EILLEGAL, "no suit is worth %d points",
                           (int)v);
        m = bat_move(BAT_M_BID, 0, 0, (int)v);
    } else if (str_prefix(s, "attack:")) {
        const char *colon = strchr(s + 7, ':');
        char num[8];
        if (!colon || colon - (s + 7) >= (long)sizeof num)
            return set_err(err, n, GAME_ESYNTAX,
                           "attack:<seat>:<cards>, e.g. attack:3:7h,7h,2h");
        memcpy(num, s + 7, (size_t)(colon - (s + 7)));
        num[colon - (s + 7)] = '\0';
        if (parse_i64(num, 1, BAT_MAX_SEATS, &v))
            return set_err(err, n, GAME_EVALUE, "attack: target seat 1..%d",
                           st->nseats);
        if ((rc = parse_cards(colon + 1, set, &suit, err, n)))
            return rc;
        m = bat_move_cards(BAT_M_ATTACK, (int)v - 1, suit, set);
    } else if (str_prefix(s, "defend:")) {
        if ((rc = parse_cards(s + 7, set, &suit, err, n)))
            return rc;
        m = bat_move_cards(BAT_M_DEFEND, 0, suit, set);
    } else {
        return set_err(err, n, GAME_ESYNTAX,
                       "not an action: draw:deck draw:pile discard:<c> bid:<n> "
                       "pass attack:<seat>:<cards> defend:<cards> surrender");
    }
    if ((rc = bat_check(st, m, err, n)))
        return rc;
    *out = m;
    return 0;
}

/* ---- board ------------------------------------------------------------- */
void bat_show(const struct bat_state *st, char *buf, size_t n)
{
    size_t len = 0;
    int N = st->nseats;
    if (n)
        buf[0] = '\0';
    if (st->is_view)
        buf_printf(buf, n, &len, "Battalion, %d players, view of seat %d\n", N,
                   st->viewer + 1);
    else
        buf_printf(buf, n, &len, "Battalion, %d players, full state\n", N);
    if (bat_over(st))
        buf_printf(buf, n, &len, "game over after %d attacks\n", st->attacks);
    else if (st->phase <= BAT_DISCARD)
        buf_printf(buf, n, &len, "collection round %d: seat %d to %s\n",
                   st->turn / N + 1, st->act + 1, phase_names[st->phase]);
    else if (st->phase == BAT_BID)
        buf_printf(buf, n, &len, "bidding: seat %d to bid or pass\n", st->act + 1);
    else
        buf_printf(buf, n, &len, "battle %d: seat %d to %s (last suit %c, at least %d points)\n",
                   st->attacks + (st->phase == BAT_ATTACK), st->act + 1,
                   phase_names[st->phase],
                   st->last_suit == BAT_NOSUIT ? '-' : bat_suit_chars[st->last_suit],
                   st->phase == BAT_ATTACK ? bat_attack_min(st) : 1);
    for (int s = 0; s < N; s++) {
        int unk = st->size[s] - bat_set_count(st->hand[s]);
        char bid[8];
        if (st->bid[s] > 0)
            snprintf(bid, sizeof bid, "%d", st->bid[s]);
        else
            snprintf(bid, sizeof bid, "%s", st->bid[s] < 0 ? "-" : "p");
        buf_printf(buf, n, &len, "seat %d%s chips %2d bid %-2s cards %2d:", s + 1,
                   s == st->act ? "*" : " ", st->chips[s], bid, st->size[s]);
        for (int su = 0; su < 4; su++) {
            int any = 0;
            for (int r = 0; r < 13; r++)
                for (int k = 0; k < st->hand[s][su * 13 + r]; k++) {
                    buf_printf(buf, n, &len, "%s", any ? "" : " ");
                    put_card(buf, n, &len, su * 13 + r);
                    any = 1;
                }
        }
        if (unk)
            buf_printf(buf, n, &len, " +%d unknown", unk);
        buf_printf(buf, n, &len, "\n");
    }
    if (st->phase == BAT_DEFEND) {
        buf_printf(buf, n, &len, "battle: seat %d attacks seat %d with", st->attacker + 1,
                   st->target + 1);
        for (int c = 0; c < BAT_NCARD; c++)
            for (int k = 0; k < st->battle[c]; k++) {
                buf_printf(buf, n, &len, " ");
                put_card(buf, n, &len, c);
            }
        buf_printf(buf, n, &len, " (%d points)\n", bat_points(st->battle));
    }
    buf_printf(buf, n, &len, "discard pile %d, top %s", st->npile,
               st->npile ? "" : "-");
    if (st->npile)
        put_card(buf, n, &len, st->pile[st->npile - 1]);
    buf_printf(buf, n, &len, "; draw pile %d", st->ndeck);
}
