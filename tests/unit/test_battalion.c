/* test_battalion.c - Battalion rules (RULES.md section 4), position strings,
 * action tokens, and the no-leak test for views. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "core/util.h"
#include "engines/battalion/battalion.h"
#include "engines/battalion/policy.h"

static const struct game *G = &battalion_game;
static char err[GAME_ERR_LEN];

/* ---- helpers ------------------------------------------------------------ */
static void set_from(uint8_t *set, const char *cards)
{
    int c;
    memset(set, 0, BAT_NCARD);
    for (; *cards; cards += 2) {
        if (*cards == ' ' || *cards == ',') {
            cards--;
            continue;
        }
        assert_int_equal(bat_parse_card(cards, &c), 0);
        set[c]++;
    }
}

static void roundtrip(const struct bat_state *st)
{
    char a[4096], b[4096];
    struct bat_state t;
    bat_format_pos(st, a, sizeof a);
    if (bat_parse_pos(&t, a, err, sizeof err) != 0)
        fail_msg("parse of own string failed: %s\n%s", err, a);
    bat_format_pos(&t, b, sizeof b);
    assert_string_equal(a, b);
    assert_true(bat_hash(&t) == bat_hash(st));
}

/* A full battle-phase state: seat hands given (NULL: 10 random cards), all
 * other cards in the deck except one on the pile.  Bids all pass. */
static void battle_state(struct bat_state *st, int N, const char **hands,
                         int act, int last_suit, int attacks, uint64_t seed)
{
    uint8_t left[BAT_NCARD];
    uint8_t pool[BAT_NDECK];
    int np = 0;
    struct rng r;
    memset(st, 0, sizeof *st);
    rng_seed(&r, seed);
    memcpy(st->rng, r.s, sizeof st->rng);
    st->nseats = (uint8_t)N;
    st->phase = BAT_ATTACK;
    st->act = (uint8_t)act;
    st->turn = (uint8_t)(3 * N);
    st->last_suit = (uint8_t)last_suit;
    st->attacks = (uint16_t)attacks;
    memset(left, 2, sizeof left);
    for (int s = 0; s < N; s++) {
        st->chips[s] = BAT_CHIPS;
        st->bid[s] = 0;
        if (hands && hands[s]) {
            set_from(st->hand[s], hands[s]);
            for (int c = 0; c < BAT_NCARD; c++) {
                assert_true(left[c] >= st->hand[s][c]);
                left[c] = (uint8_t)(left[c] - st->hand[s][c]);
            }
            st->size[s] = (uint8_t)bat_set_count(st->hand[s]);
        }
    }
    for (int c = 0; c < BAT_NCARD; c++)
        for (int k = 0; k < left[c]; k++)
            pool[np++] = (uint8_t)c;
    for (int i = np - 1; i > 0; i--) {
        int j = (int)rng_below(&r, (uint64_t)i + 1);
        uint8_t t = pool[i];
        pool[i] = pool[j];
        pool[j] = t;
    }
    for (int s = 0; s < N; s++)
        while (st->size[s] < BAT_HAND) {
            st->hand[s][pool[--np]]++;
            st->size[s]++;
        }
    st->pile[st->npile++] = pool[--np];
    memcpy(st->deck, pool, (size_t)np);
    st->ndeck = (uint8_t)np;
}

static gmove mv(const struct bat_state *st, const char *tok)
{
    gmove m;
    if (bat_parse_move(st, tok, &m, err, sizeof err) != 0)
        fail_msg("move %s refused: %s", tok, err);
    return m;
}

static int refused(const struct bat_state *st, const char *tok)
{
    gmove m;
    return bat_parse_move(st, tok, &m, err, sizeof err) != 0;
}

static int total_chips(const struct bat_state *st)
{
    int t = 0;
    for (int s = 0; s < st->nseats; s++)
        t += st->chips[s];
    return t;
}

/* ---- tests --------------------------------------------------------------- */
static void test_table(void **unused)
{
    (void)unused;
    assert_int_equal(game_check(G, err, sizeof err), 0);
    assert_true(G->state_size <= GAME_MAX_STATE);
    assert_true(G->config_size <= GAME_MAX_CONFIG);
}

static void test_twins_scoring(void **unused)
{
    uint8_t set[BAT_NCARD];
    (void)unused;
    set_from(set, "7h7h2h");
    assert_int_equal(bat_points(set), 5); /* twin pair 4 + single 1 */
    set_from(set, "7h7h2h2h");
    assert_int_equal(bat_points(set), 8);
    set_from(set, "7h2h3h");
    assert_int_equal(bat_points(set), 3);
    set_from(set, "7h7s");
    assert_int_equal(bat_points(set), 2); /* same rank, other suit: no twin */
    set_from(set, "AcAc2c3d3d4s");
    assert_int_equal(bat_suit_points(set, 0), 5);
    assert_int_equal(bat_suit_points(set, 1), 4);
    assert_int_equal(bat_best_suit_points(set), 5);
}

static void test_deal(void **unused)
{
    struct bat_state a, b;
    struct bat_config cfg;
    (void)unused;
    G->config_default(&cfg);
    assert_int_equal(cfg.players, 4);
    assert_int_equal(G->config_set(&cfg, "players", "5", err, sizeof err), 0);
    assert_int_equal(G->config_set(&cfg, "seed", "42", err, sizeof err), 0);
    assert_int_equal(G->config_set(&cfg, "game", "7", err, sizeof err), 0);
    assert_int_equal(G->config_set(&cfg, "seat", "2", err, sizeof err), 0);
    assert_true(G->config_set(&cfg, "players", "7", err, sizeof err) != 0);
    assert_true(G->config_set(&cfg, "players", "2", err, sizeof err) != 0);
    assert_true(G->config_set(&cfg, "colour", "2", err, sizeof err) != 0);
    G->start(&a, &cfg);
    G->start(&b, &cfg);
    assert_memory_equal(&a, &b, sizeof a); /* pure function of (seed, game) */
    assert_int_equal(a.nseats, 5);
    for (int s = 0; s < 5; s++) {
        assert_int_equal(a.size[s], 10);
        assert_int_equal(a.chips[s], 10);
    }
    assert_int_equal(a.npile, 1);
    assert_int_equal(a.ndeck, 104 - 50 - 1);
    assert_int_equal(G->to_move(&a), 1);
    assert_int_equal(a.phase, BAT_DRAW);
    roundtrip(&a);
    G->config_set(&cfg, "game", "8", err, sizeof err);
    G->start(&b, &cfg);
    assert_true(memcmp(&a, &b, sizeof a) != 0);
    {
        char buf[128];
        G->config_format(&cfg, buf, sizeof buf);
        assert_string_equal(buf, "players=5 seat=2 seed=42 game=8");
    }
}

static void test_collection(void **unused)
{
    struct bat_state st;
    gmove m[64];
    int n, top;
    char tok[32];
    (void)unused;
    bat_deal(&st, 3, 1, 1);
    n = bat_gen(&st, m, 64);
    assert_int_equal(n, 2); /* draw:deck draw:pile */
    assert_true(refused(&st, "discard:7h"));
    top = st.pile[0];
    bat_play(&st, mv(&st, "draw:pile"));
    assert_int_equal(st.phase, BAT_DISCARD);
    assert_int_equal(st.size[0], 11);
    assert_int_equal(st.known[0][top], 1); /* public */
    assert_int_equal(st.npile, 0);
    roundtrip(&st);
    /* any card may be discarded, including the one just taken */
    snprintf(tok, sizeof tok, "discard:%c%c", bat_rank_chars[bat_rank(top)],
             bat_suit_chars[bat_suit(top)]);
    bat_play(&st, mv(&st, tok));
    assert_int_equal(st.known[0][top], 0);
    assert_int_equal(st.pile[0], top);
    assert_int_equal(st.act, 1);
    assert_int_equal(st.phase, BAT_DRAW);
    /* the rest of the 3 rounds: 9 turns in all, ending with the dealer */
    for (int t = 1; t < 9; t++) {
        int deck_before = st.ndeck;
        assert_int_equal(st.act, t % 3);
        bat_play(&st, mv(&st, "draw:deck"));
        assert_int_equal(st.ndeck, deck_before - 1);
        n = bat_gen(&st, m, 64);
        assert_true(n >= 1 && n <= 11);
        bat_play(&st, m[0]);
        roundtrip(&st);
    }
    assert_int_equal(st.phase, BAT_BID);
    assert_int_equal(st.act, 0);
}

static void test_bidding_limits(void **unused)
{
    const char *hands[3] = {"AhAh2h3h4h5c6c7c8c9c", /* hearts 7, clubs 5 */
                            "2s3s4s5s6s7s8s9sTsJs", /* spades 10 */
                            "AcAdAs2d3d4d5d6dKcKc"};
    struct bat_state st;
    gmove m[64];
    int n;
    (void)unused;
    battle_state(&st, 3, hands, 0, BAT_NOSUIT, 0, 3);
    st.phase = BAT_BID;
    for (int s = 0; s < 3; s++)
        st.bid[s] = -1;
    roundtrip(&st);
    n = bat_gen(&st, m, 64);
    assert_int_equal(n, 1 + 4); /* pass, bid:4..7 */
    assert_true(refused(&st, "bid:3"));  /* at least 4 */
    assert_true(refused(&st, "bid:8"));  /* over the best suit */
    assert_true(refused(&st, "attack:2:Ah"));
    bat_play(&st, mv(&st, "bid:5"));     /* under the best suit: allowed */
    assert_true(refused(&st, "bid:5"));  /* must be higher */
    assert_true(refused(&st, "bid:11"));
    n = bat_gen(&st, m, 64);
    assert_int_equal(n, 1 + 5);         /* pass, bid:6..10 */
    bat_play(&st, mv(&st, "bid:9"));
    bat_play(&st, mv(&st, "pass"));
    assert_int_equal(st.phase, BAT_ATTACK);
    assert_int_equal(st.act, 1);        /* the highest bidder attacks */
    assert_int_equal(bat_attack_min(&st), 9);
    roundtrip(&st);
    /* first attack at least the winning bid */
    assert_true(refused(&st, "attack:1:2s,3s,4s,5s,6s,7s,8s,9s"));
    assert_true(refused(&st, "attack:2:2s,3s,4s,5s,6s,7s,8s,9s,Ts")); /* self */
    n = bat_gen(&st, m, 64);
    assert_int_equal(n, 11 * 2); /* 10 spades: subsets of >= 9 cards, 2 targets */
    bat_play(&st, mv(&st, "attack:3:2s,3s,4s,5s,6s,7s,8s,9s,Ts"));
    assert_int_equal(st.phase, BAT_DEFEND);
    assert_int_equal(st.act, 2);
    roundtrip(&st);
}

static void test_all_pass(void **unused)
{
    struct bat_state st;
    (void)unused;
    battle_state(&st, 4, NULL, 0, BAT_NOSUIT, 0, 4);
    st.phase = BAT_BID;
    for (int s = 0; s < 4; s++)
        st.bid[s] = -1;
    for (int s = 0; s < 4; s++)
        bat_play(&st, mv(&st, "pass"));
    assert_int_equal(st.phase, BAT_ATTACK);
    assert_int_equal(st.act, 0);
    assert_int_equal(bat_attack_min(&st), 1); /* no minimum */
    roundtrip(&st);
}

static void test_suit_restriction_and_skip(void **unused)
{
    const char *hands[4] = {"AhAh2h3h4h5c6c7c8c9c",
                            "2s3s4s5s6s7s8s9sTsJs", /* spades only: skips */
                            "AcAdAs2d3d4d5d6dKcKc", "2c3c4c5c6c7c8cTdJdQd"};
    struct bat_state st;
    gmove m[BAT_MAX_MOVES];
    int n;
    (void)unused;
    battle_state(&st, 4, hands, 0, 3, 3, 5); /* last attack in spades */
    roundtrip(&st);
    n = bat_gen(&st, m, BAT_MAX_MOVES);
    /* hearts (2 twins... Ah Ah 2h 3h 4h: 3*2*2*2-1=23) + clubs (31), x3 targets */
    assert_int_equal(n, (23 + 31) * 3);
    bat_play(&st, mv(&st, "attack:3:2h"));
    assert_int_equal(st.last_suit, 2);
    /* seat 3 surrenders; next attacker seat 2 may not attack in hearts -
     * it has spades only -> but spades are allowed now */
    bat_play(&st, mv(&st, "surrender"));
    assert_int_equal(st.act, 1);
    assert_true(refused(&st, "attack:1:2h"));
    bat_play(&st, mv(&st, "attack:1:2s"));
    bat_play(&st, mv(&st, "surrender"));
    /* seat 3 attacks next; it must not use spades */
    assert_int_equal(st.act, 2);
    assert_true(refused(&st, "attack:1:As"));
    /* now make seat 4 (next after 3) hold spades only and attack in spades */
    {
        const char *h2[4] = {"AhAh2h3h4h5c6c7c8c9c", "2c3c4c5c6c7c8cTdJdQd",
                             "AcAdAs2d3d4d5d6dKcKc", "2s3s4s5s6s7s8s9sTsJs"};
        battle_state(&st, 4, h2, 2, 2, 3, 6);
    }
    bat_play(&st, mv(&st, "attack:1:As"));
    bat_play(&st, mv(&st, "surrender"));
    /* seat 4 holds only spades (unless the refill...) - it was not refilled */
    assert_int_equal(st.act, 0); /* seat 4 skipped, seat 1 attacks */
    assert_int_equal(st.last_suit, 3); /* the restriction is the last attack made */
    roundtrip(&st);
}

static void test_chips(void **unused)
{
    const char *hands[3] = {"AhAh2h3h4h5c6c7c8c9c", "2h3h5h6h7h8h9hThJhQh",
                            "AcAdAs2d3d4d5d6dKcKc"};
    struct bat_state st, s0;
    (void)unused;
    battle_state(&st, 3, hands, 0, 3, 2, 7);
    s0 = st;
    /* attacker 6 points (AhAh 2h 3h), defender 2 points: defender pays 4 */
    bat_play(&st, mv(&st, "attack:2:Ah,Ah,2h,3h"));
    bat_play(&st, mv(&st, "defend:5h,6h"));
    assert_int_equal(st.chips[0], 14);
    assert_int_equal(st.chips[1], 6);
    assert_int_equal(total_chips(&st), 30);
    /* defender stronger: attacker pays twice the difference */
    st = s0;
    bat_play(&st, mv(&st, "attack:2:2h"));
    bat_play(&st, mv(&st, "defend:5h,6h,7h"));
    assert_int_equal(st.chips[0], 6);
    assert_int_equal(st.chips[1], 14);
    /* equal: nothing changes */
    st = s0;
    bat_play(&st, mv(&st, "attack:2:2h,3h"));
    bat_play(&st, mv(&st, "defend:5h,6h"));
    assert_int_equal(st.chips[0], 10);
    assert_int_equal(st.chips[1], 10);
    /* surrender: the defender pays the attack's points */
    st = s0;
    bat_play(&st, mv(&st, "attack:2:Ah,Ah"));
    bat_play(&st, mv(&st, "surrender"));
    assert_int_equal(st.chips[0], 14);
    assert_int_equal(st.chips[1], 6);
    /* the cap: nobody pays more than they have */
    st = s0;
    st.chips[0] = 3;
    st.chips[2] = 17;
    bat_play(&st, mv(&st, "attack:2:2h"));
    bat_play(&st, mv(&st, "defend:5h,6h,7h,8h,9h,Th")); /* d = -5: owes 10 */
    assert_int_equal(st.chips[0], 0);
    assert_int_equal(st.chips[1], 13);
    assert_int_equal(total_chips(&st), 30);
    st = s0;
    st.chips[1] = 2;
    st.chips[2] = 18;
    bat_play(&st, mv(&st, "attack:2:Ah,Ah,2h,3h"));
    bat_play(&st, mv(&st, "surrender"));
    assert_int_equal(st.chips[0], 12);
    assert_int_equal(st.chips[1], 0);
    /* defence must be in the attacking suit */
    st = s0;
    bat_play(&st, mv(&st, "attack:2:2h"));
    assert_true(refused(&st, "defend:2c"));
    assert_true(refused(&st, "defend:Ah")); /* not held by seat 2 */
    assert_true(refused(&st, "attack:1:5h"));
}

static void test_refill_and_reshuffle(void **unused)
{
    const char *hands[3] = {"AhAh2h3h4h5c6c7c8c9c", "2h3h5h6h7h8h9hThJhQh",
                            "AcAdAs2d3d4d5d6dKcKc"};
    struct bat_state st;
    int top[3];
    (void)unused;
    battle_state(&st, 3, hands, 0, 3, 2, 8);
    top[0] = st.deck[st.ndeck - 1];
    top[1] = st.deck[st.ndeck - 2];
    top[2] = st.deck[st.ndeck - 3];
    bat_play(&st, mv(&st, "attack:2:Ah,Ah"));
    bat_play(&st, mv(&st, "defend:5h"));
    /* defender first: it gets the top card, the attacker the next two */
    assert_true(st.hand[1][top[0]] >= 1);
    assert_true(st.hand[0][top[1]] >= 1);
    assert_true(st.hand[0][top[2]] >= 1);
    assert_int_equal(st.size[0], 10);
    assert_int_equal(st.size[1], 10);
    /* played cards on the pile: attack then defence */
    assert_int_equal(st.npile, 4);
    roundtrip(&st);

    /* reshuffle: draw pile with 1 card, the defender takes it, the attacker
     * draws from the reshuffled discard pile */
    battle_state(&st, 3, hands, 0, 3, 2, 9);
    while (st.ndeck > 1)
        st.pile[st.npile++] = st.deck[--st.ndeck];
    roundtrip(&st);
    {
        int last = st.deck[0], npile = st.npile;
        bat_play(&st, mv(&st, "attack:2:Ah,Ah"));
        bat_play(&st, mv(&st, "defend:5h"));
        assert_true(st.hand[1][last] >= 1);
        assert_int_equal(st.size[0], 10);
        assert_int_equal(st.size[1], 10);
        assert_int_equal(st.npile, 0);
        assert_int_equal(st.ndeck, npile + 3 - 2);
        roundtrip(&st);
    }
    /* the same state reshuffles the same way (pure function of the state) */
    {
        struct bat_state a, b;
        battle_state(&a, 3, hands, 0, 3, 2, 9);
        while (a.ndeck > 1)
            a.pile[a.npile++] = a.deck[--a.ndeck];
        b = a;
        bat_play(&a, mv(&a, "attack:2:Ah,Ah"));
        bat_play(&a, mv(&a, "surrender"));
        bat_play(&b, mv(&b, "attack:2:Ah,Ah"));
        bat_play(&b, mv(&b, "surrender"));
        assert_memory_equal(&a, &b, sizeof a);
    }
}

static void test_end_and_shared_wins(void **unused)
{
    const char *hands[4] = {"AhAh2h3h4h5c6c7c8c9c", "2h3h5h6h7h8h9hThJhQh",
                            "AcAdAs2d3d4d5d6dKcKc", "2c3c4c5c6c7c8cTdJdQd"};
    struct bat_state st;
    struct game_result r;
    gmove m[8];
    (void)unused;
    battle_state(&st, 4, hands, 0, 3, 5, 10);
    st.chips[0] = 12;
    st.chips[1] = 2;
    st.chips[2] = 12;
    st.chips[3] = 14;
    G->result(&st, NULL, 0, &r);
    assert_int_equal(r.over, 0);
    bat_play(&st, mv(&st, "attack:2:Ah,Ah"));
    bat_play(&st, mv(&st, "surrender"));
    /* seat 2 bankrupt: 14 14 0 12 -> seats 1 and 4 share the win */
    G->result(&st, NULL, 0, &r);
    assert_int_equal(r.over, 1);
    assert_int_equal(r.nseats, 4);
    assert_string_equal(r.reason, "bankrupt");
    assert_int_equal(r.rank[0], 1);
    assert_int_equal(r.rank[3], 1);
    assert_int_equal(r.rank[2], 3);
    assert_int_equal(r.rank[1], 4);
    assert_true(r.score[0] == 14.0 && r.score[1] == 0.0);
    assert_int_equal(bat_gen(&st, m, 8), 0);
    assert_true(refused(&st, "attack:3:5c"));
    roundtrip(&st);
    /* the safety net: 200 attacks */
    battle_state(&st, 4, hands, 0, 3, 199, 11);
    bat_play(&st, mv(&st, "attack:2:2h"));
    bat_play(&st, mv(&st, "defend:2h")); /* d = 0 */
    G->result(&st, NULL, 0, &r);
    assert_int_equal(r.over, 1);
    assert_string_equal(r.reason, "maxattacks");
    for (int s = 0; s < 4; s++)
        assert_int_equal(r.rank[s], 1); /* all on 10: a shared win */
    roundtrip(&st);
}

static void test_move_tokens(void **unused)
{
    const char *hands[3] = {"AhAh2h3h4h5c6c7c8c9c", "2h3h5h6h7h8h9hThJhQh",
                            "AcAdAs2d3d4d5d6dKcKc"};
    struct bat_state st;
    char buf[64];
    gmove m;
    (void)unused;
    battle_state(&st, 3, hands, 0, 3, 1, 12);
    m = mv(&st, "attack:3:2h,ah,AH");
    bat_format_move(m, buf, sizeof buf);
    assert_string_equal(buf, "attack:3:Ah,Ah,2h");
    assert_int_equal(bat_parse_move(&st, "attack:3:Ah,2c", &m, err, sizeof err),
                     GAME_EILLEGAL);
    assert_int_equal(bat_parse_move(&st, "attack:3:", &m, err, sizeof err),
                     GAME_ESYNTAX);
    assert_int_equal(bat_parse_move(&st, "attack:9:Ah", &m, err, sizeof err),
                     GAME_EVALUE);
    assert_int_equal(bat_parse_move(&st, "attack:3:Ah,Ah,Ah", &m, err, sizeof err),
                     GAME_EILLEGAL);
    assert_int_equal(bat_parse_move(&st, "attack:3:Xh", &m, err, sizeof err),
                     GAME_ESYNTAX);
    assert_int_equal(bat_parse_move(&st, "bogus", &m, err, sizeof err), GAME_ESYNTAX);
    assert_int_equal(bat_parse_move(&st, "bid:5", &m, err, sizeof err), GAME_EILLEGAL);
    /* every generated token round-trips */
    {
        gmove all[BAT_MAX_MOVES];
        int n = bat_gen(&st, all, BAT_MAX_MOVES);
        assert_true(n > 0);
        for (int i = 0; i < n; i++) {
            gmove back;
            bat_format_move(all[i], buf, sizeof buf);
            assert_int_equal(bat_parse_move(&st, buf, &back, err, sizeof err), 0);
            assert_true(back == all[i]);
        }
        /* distinct choices, twins counted as such */
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                assert_true(all[i] != all[j]);
    }
}

static void test_position_strings(void **unused)
{
    struct bat_state st, v;
    char buf[4096];
    const char *bad[] = {
        "",
        "full",
        "view:7 phase=draw",
        "full phase=draw act=1 turn=0 attacks=0 last=- chips=10,10,10 bids=-,-,- "
        "hands=-/-/- known=-/-/- battle=- pile=- deck=- rng=1:2:3:4",
        NULL};
    (void)unused;
    for (int i = 0; bad[i]; i++)
        assert_true(bat_parse_pos(&st, bad[i], err, sizeof err) != 0);
    bat_deal(&st, 4, 99, 1);
    bat_format_pos(&st, buf, sizeof buf);
    assert_true(str_prefix(buf, "full phase=draw act=1 turn=0 attacks=0 last=- "
                                "chips=10,10,10,10 bids=-,-,-,- hands="));
    assert_non_null(strstr(buf, " rng="));
    bat_make_view(&st, 1, &v);
    bat_format_pos(&v, buf, sizeof buf);
    assert_true(str_prefix(buf, "view:2 phase=draw act=1 "));
    assert_non_null(strstr(buf, "hands=+10/"));
    assert_non_null(strstr(buf, "/+10/+10 known=-/-/-/- battle=- pile="));
    assert_non_null(strstr(buf, " deck=63"));
    assert_null(strstr(buf, "rng"));
    roundtrip(&v);
    assert_int_equal(G->is_view(&v), 1);
    assert_int_equal(G->is_view(&st), 0);
    /* a view of another seat cannot act: no moves, actions refused */
    {
        gmove m[8];
        assert_int_equal(bat_gen(&v, m, 8), 0);
        assert_true(refused(&v, "draw:deck"));
        assert_non_null(strstr(err, "view of seat 2"));
    }
    /* mutate a valid string: a change of one field must not crash */
    bat_format_pos(&st, buf, sizeof buf);
    {
        struct rng r;
        rng_seed(&r, 5);
        for (int i = 0; i < 20000; i++) {
            char tmp[4096];
            size_t L = strlen(buf);
            strcpy(tmp, buf);
            for (int k = 0; k < 3; k++)
                tmp[rng_below(&r, L)] = "0123456789/,:=-+ AKhcdsxp"[rng_below(&r, 25)];
            if (bat_parse_pos(&v, tmp, err, sizeof err) == 0)
                roundtrip(&v);
        }
    }
}

/* ---- random games --------------------------------------------------------- */
static gmove random_move(const struct bat_state *st, struct rng *r)
{
    static gmove m[BAT_MAX_MOVES];
    int n = bat_gen(st, m, BAT_MAX_MOVES);
    assert_true(n > 0);
    return m[rng_below(r, (uint64_t)n)];
}

static void test_random_games(void **unused)
{
    struct rng r;
    int over = 0;
    (void)unused;
    rng_seed(&r, 77);
    for (int g = 0; g < 60; g++) {
        struct bat_state st;
        struct game_result res;
        int N = 3 + g % 4;
        bat_deal(&st, N, 1000 + (uint64_t)g, (uint64_t)g);
        for (int ply = 0; ply < 3000; ply++) {
            G->result(&st, NULL, 0, &res);
            if (res.over) {
                over++;
                break;
            }
            if (ply % 7 == 0)
                roundtrip(&st);
            bat_play(&st, random_move(&st, &r));
            assert_int_equal(total_chips(&st), 10 * N);
        }
        assert_true(res.over);
    }
    assert_int_equal(over, 60);
}

/* The no-leak test.  For many states of random games and every seat k:
 * re-deal every card seat k cannot know (the unknown part of the other
 * hands and the whole draw pile, plus a new PRNG) and check that seat k's
 * view string does not change.  Also check against an independent record
 * of what is public: cards other seats took from the discard pile. */
static void redeal_hidden(const struct bat_state *st, int k, struct bat_state *out,
                          struct rng *r)
{
    uint8_t pool[BAT_NDECK];
    int np = 0;
    *out = *st;
    for (int s = 0; s < st->nseats; s++) {
        if (s == k)
            continue;
        for (int c = 0; c < BAT_NCARD; c++) {
            int hidden = st->hand[s][c] - st->known[s][c];
            for (int i = 0; i < hidden; i++)
                pool[np++] = (uint8_t)c;
            out->hand[s][c] = st->known[s][c];
        }
    }
    memcpy(pool + np, st->deck, st->ndeck);
    np += st->ndeck;
    for (int i = np - 1; i > 0; i--) {
        int j = (int)rng_below(r, (uint64_t)i + 1);
        uint8_t t = pool[i];
        pool[i] = pool[j];
        pool[j] = t;
    }
    for (int s = 0; s < st->nseats; s++)
        if (s != k)
            while (bat_set_count(out->hand[s]) < st->size[s])
                out->hand[s][pool[--np]]++;
    assert_int_equal(np, st->ndeck);
    memcpy(out->deck, pool, (size_t)np);
    for (int i = 0; i < 4; i++)
        out->rng[i] = rng_next(r);
}

static void test_views_leak_nothing(void **unused)
{
    struct rng r;
    int checked = 0;
    (void)unused;
    rng_seed(&r, 2024);
    for (int g = 0; g < 40; g++) {
        struct bat_state st;
        uint8_t taken[BAT_MAX_SEATS][BAT_NCARD]; /* independent public record */
        int N = 3 + g % 4;
        memset(taken, 0, sizeof taken);
        bat_deal(&st, N, 5000 + (uint64_t)g, 3);
        for (int ply = 0; ply < 400 && !bat_over(&st); ply++) {
            gmove m = random_move(&st, &r);
            int s = st.act, top = st.npile ? st.pile[st.npile - 1] : -1;
            uint8_t set[BAT_NCARD];
            for (int k = 0; k < N; k++) {
                struct bat_state v1, v2, other, vv;
                char a[4096], b[4096];
                redeal_hidden(&st, k, &other, &r);
                bat_make_view(&st, k, &v1);
                assert_int_equal(G->view(&other, k + 1, &v2), 0);
                bat_format_pos(&v1, a, sizeof a);
                bat_format_pos(&v2, b, sizeof b);
                assert_string_equal(a, b);
                assert_true(bat_hash(&v1) == bat_hash(&v2));
                roundtrip(&v1);
                /* the view holds exactly: own hand; public cards of others */
                assert_memory_equal(v1.hand[k], st.hand[k], BAT_NCARD);
                for (int o = 0; o < N; o++)
                    if (o != k)
                        assert_memory_equal(v1.hand[o], taken[o], BAT_NCARD);
                /* a view of a view is the same view */
                bat_make_view(&v1, k, &vv);
                assert_memory_equal(&vv, &v1, sizeof vv);
                checked++;
            }
            /* keep the public record from the public side of the action */
            switch (bat_mkind(m)) {
            case BAT_M_DRAW_PILE: taken[s][top]++; break;
            case BAT_M_DISCARD:
                if (taken[s][bat_mvalue(m)])
                    taken[s][bat_mvalue(m)]--;
                break;
            case BAT_M_ATTACK:
            case BAT_M_DEFEND:
                bat_move_set(m, set);
                for (int c = 0; c < BAT_NCARD; c++)
                    taken[s][c] = (uint8_t)(taken[s][c] > set[c] ? taken[s][c] - set[c] : 0);
                break;
            }
            /* public moves played on a view give the next view (the seat to
             * act plays on its own view; draws stay unknown there) */
            {
                struct bat_state v, after, want;
                bat_make_view(&st, s, &v);
                after = st;
                bat_play(&after, m);
                bat_play(&v, m);
                for (int o = 0; o < N; o++) {
                    struct bat_state pv;
                    int kind = bat_mkind(m);
                    if (o == s || ((kind == BAT_M_DEFEND || kind == BAT_M_SURRENDER) &&
                                   o == st.attacker))
                        continue; /* o draws unseen cards itself */
                    bat_make_view(&st, o, &pv);
                    bat_play(&pv, m);
                    bat_make_view(&after, o, &want);
                    assert_memory_equal(&pv, &want, sizeof pv);
                }
                assert_int_equal(v.ndeck + v.npile, after.ndeck + after.npile);
                assert_memory_equal(v.chips, after.chips, sizeof v.chips);
                assert_int_equal(v.act, after.act);
                assert_int_equal(v.phase, after.phase);
                assert_memory_equal(v.size, after.size, sizeof v.size);
            }
            bat_play(&st, m);
        }
    }
    assert_true(checked > 10000);
}

/* The `shown` field: read and printed back, refused when malformed, out of
 * range or before the battles; absent means nothing shown. */
static void test_shown_field(void **unused)
{
    static const char *head =
        "view:2 phase=attack act=2 turn=12 attacks=3 last=h chips=7,1,19,13 bids=7,p,8,p "
        "hands=+10/3c2d4d4d5h2s2s3s7sKs/+10/+10 known=-/3s/-/- ";
    static const char *tail =
        " battle=- pile=6dQdKd4h5d6h9hQhAdAd3d5d6dTdJdAcAc3c5cTc2c4c6cQcAh2h3h6h7h9hThKh3h8h "
        "deck=30";
    static const char *bad[] = {"shown=-s8p8-/p6-p2-/-p7--", "shown=-s8p8-/p6-p2-/-p7--/p5--x",
                                "shown=-s8p8-/p6-p2-/-p7--/p5--p10", "shown=-s8p8-/p6-p2-/-p7--/p5----",
                                "shown=-s8p8-/p6-p2-/-p7--/p5", "shown=-s8p8-/p6-p2-/-p7--/pp--",
                                "shown=-s8p8-/p6-p2-/-p7--/p5---/----"};
    char buf[4096], out[4096];
    struct bat_state st;
    (void)unused;
    snprintf(buf, sizeof buf, "%sshown=-s8p8-/p6-p2-/-p7--/v5--v0%s", head, tail);
    assert_int_equal(bat_parse_pos(&st, buf, err, sizeof err), 0);
    assert_int_equal(st.shown[0][1], BAT_SHOWN_SURRENDER << 4 | 8);
    assert_int_equal(st.shown[3][3], BAT_SHOWN_SKIPPED << 4);
    bat_format_pos(&st, out, sizeof out);
    assert_string_equal(out, buf);
    roundtrip(&st);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(buf, sizeof buf, "%s%s%s", head, bad[i], tail);
        assert_true(bat_parse_pos(&st, buf, err, sizeof err) != 0);
    }
    /* absent: all '-', and not printed */
    snprintf(buf, sizeof buf, "%s%s", head, tail + 1);
    assert_int_equal(bat_parse_pos(&st, buf, err, sizeof err), 0);
    bat_format_pos(&st, out, sizeof out);
    assert_null(strstr(out, "shown="));
    /* nothing is shown before the battles */
    bat_deal(&st, 4, 1, 1);
    st.shown[1][2] = BAT_SHOWN_PLAYED << 4;
    bat_format_pos(&st, out, sizeof out);
    assert_true(bat_parse_pos(&st, out, err, sizeof err) != 0);
}

/* `discards`: each seat's last collection discard, public, kept while the
 * seat plays no card (a surrender keeps it), cleared by its attack or
 * defence; parsed, printed and checked. */
static void test_discards_field(void **unused)
{
    struct bat_state st;
    char out[4096];
    struct rng r;
    int N = 4;
    (void)unused;
    rng_seed(&r, 12);
    bat_deal(&st, N, 5, 2);
    bat_format_pos(&st, out, sizeof out);
    assert_null(strstr(out, "discards="));
    /* collection: every discard is recorded for its seat */
    while (st.phase <= BAT_DISCARD) {
        gmove m = bat_heuristic_move(&st, &r);
        int s = st.act;
        bat_play(&st, m);
        if (bat_mkind(m) == BAT_M_DISCARD)
            assert_int_equal(st.discard[s], bat_mvalue(m) + 1);
        roundtrip(&st);
    }
    for (int s = 0; s < N; s++)
        assert_true(st.discard[s] > 0);
    bat_format_pos(&st, out, sizeof out);
    assert_non_null(strstr(out, " discards="));
    /* battles: an attack or a defence clears the seat's entry, a surrender
     * keeps it */
    for (int ply = 0; ply < 400 && !bat_over(&st); ply++) {
        gmove m = bat_heuristic_move(&st, &r);
        int s = st.act, before = st.discard[s];
        bat_play(&st, m);
        if (bat_mkind(m) == BAT_M_ATTACK || bat_mkind(m) == BAT_M_DEFEND)
            assert_int_equal(st.discard[s], 0);
        else
            assert_int_equal(st.discard[s], before);
        roundtrip(&st);
    }
    {
        static const char *head =
            "view:2 phase=draw act=3 turn=2 attacks=0 last=- chips=10,10,10,10 bids=-,-,-,- "
            "hands=+10/2c4c7cTc3d8h9hJhAs4s/+10/+10 known=-/3d/-/- ";
        static const char *tail = " battle=- pile=Qc2c deck=62";
        static const char *bad[] = {"discards=2d/2c/-", "discards=2d/2c/-/-/-",
                                    "discards=2d/2cc/-/-", "discards=2d/2x/-/-",
                                    "discards=2d/2c/5h/-", "discards=-/-/-/5h",
                                    "discards=2d/+1/-/-"};
        char buf[4096];
        snprintf(buf, sizeof buf, "%sdiscards=2d/2c/-/-%s", head, tail);
        assert_int_equal(bat_parse_pos(&st, buf, err, sizeof err), 0);
        assert_int_equal(st.discard[0], 1 * 13 + 1 + 1);
        assert_int_equal(st.discard[2], 0);
        bat_format_pos(&st, out, sizeof out);
        assert_string_equal(out, buf);
        for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
            snprintf(buf, sizeof buf, "%s%s%s", head, bad[i], tail);
            assert_true(bat_parse_pos(&st, buf, err, sizeof err) != 0);
        }
    }
}

/* The battles' public record (`shown`) is made from what the table saw
 * only.  Two deals that differ in two hidden cards (x in seat p's hand, y in
 * seat q's, of different suits: B swaps them) are played with the same
 * actions, none of which gives up the swapped copies; every other seat must
 * see the same view string at every step. */
static int copies_used(gmove m, int c)
{
    uint8_t set[BAT_NCARD];
    switch (bat_mkind(m)) {
    case BAT_M_DISCARD: return bat_mvalue(m) == c;
    case BAT_M_ATTACK:
    case BAT_M_DEFEND: bat_move_set(m, set); return set[c];
    }
    return 0;
}

/* The heuristic's action for A, kept from giving up seat p's last x (or
 * seat q's last y): the card is taken out of its set, else a random action. */
static gmove keep_card(const struct bat_state *st, int p, int x, int q, int y,
                       struct rng *r)
{
    static gmove all[BAT_MAX_MOVES];
    int s = st->act, c = s == p ? x : s == q ? y : -1, n, ok = 0;
    gmove m = bat_heuristic_move(st, r);
    if (c < 0 || copies_used(m, c) < st->hand[s][c])
        return m;
    if (bat_mkind(m) == BAT_M_ATTACK || bat_mkind(m) == BAT_M_DEFEND) {
        uint8_t set[BAT_NCARD];
        bat_move_set(m, set);
        set[c] = (uint8_t)(st->hand[s][c] - 1);
        if (bat_set_count(set)) {
            gmove m2 = bat_move_cards(bat_mkind(m), bat_mtarget(m), bat_msuit(m), set);
            if (bat_check(st, m2, err, sizeof err) == 0)
                return m2;
        }
    }
    n = bat_gen(st, all, BAT_MAX_MOVES);
    for (int i = 0; i < n; i++)
        if (copies_used(all[i], c) < st->hand[s][c])
            all[ok++] = all[i];
    assert_true(ok > 0);
    return all[rng_below(r, (uint64_t)ok)];
}

static void test_shown_is_public(void **unused)
{
    struct rng r;
    int compared = 0, informative = 0, collected = 0;
    (void)unused;
    rng_seed(&r, 606);
    for (int g = 0; g < 24; g++) {
        struct bat_state a, b;
        int N = 3 + g % 4, p = 1, q = 2, x = -1, y = -1;
        bat_deal(&a, N, 9000 + (uint64_t)g, 1);
        for (int c = 0; c < BAT_NCARD && x < 0; c++)
            if (a.hand[p][c] == 1 && !a.hand[q][c])
                x = c;
        for (int c = 0; c < BAT_NCARD && y < 0; c++)
            if (a.hand[q][c] == 1 && !a.hand[p][c] && bat_suit(c) != bat_suit(x))
                y = c;
        assert_true(x >= 0 && y >= 0);
        b = a;
        b.hand[p][x]--, b.hand[p][y]++;
        b.hand[q][y]--, b.hand[q][x]++;
        for (int ply = 0; ply < 600 && !bat_over(&a); ply++) {
            gmove m = keep_card(&a, p, x, q, y, &r);
            for (int k = 0; k < N; k++) {
                struct bat_state va, vb;
                char sa[4096], sb[4096];
                if (k == p || k == q)
                    continue;
                bat_make_view(&a, k, &va);
                bat_make_view(&b, k, &vb);
                bat_format_pos(&va, sa, sizeof sa);
                bat_format_pos(&vb, sb, sizeof sb);
                assert_string_equal(sa, sb);
                compared++;
                informative += strstr(sa, "shown=") != NULL;
                collected += strstr(sa, "discards=") != NULL;
            }
            assert_int_equal(bat_check(&a, m, err, sizeof err), 0);
            if (a.act != b.act || bat_check(&b, m, err, sizeof err))
                break; /* a skip told the deals apart: public, and rare */
            bat_play(&a, m);
            bat_play(&b, m);
        }
    }
    assert_true(compared > 2000);
    assert_true(informative > compared / 3);
    assert_true(collected > compared / 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_twins_scoring),
        cmocka_unit_test(test_deal),
        cmocka_unit_test(test_collection),
        cmocka_unit_test(test_bidding_limits),
        cmocka_unit_test(test_all_pass),
        cmocka_unit_test(test_suit_restriction_and_skip),
        cmocka_unit_test(test_chips),
        cmocka_unit_test(test_refill_and_reshuffle),
        cmocka_unit_test(test_end_and_shared_wins),
        cmocka_unit_test(test_move_tokens),
        cmocka_unit_test(test_position_strings),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_views_leak_nothing),
        cmocka_unit_test(test_shown_field),
        cmocka_unit_test(test_shown_is_public),
        cmocka_unit_test(test_discards_field),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
